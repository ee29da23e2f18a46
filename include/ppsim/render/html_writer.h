// One self-contained HTML page: the display list as inline SVG, a script that
// plays it (play / pause, a scrubber, step one tick back and forward, keys
// space / arrow left / arrow right) and each run's numbers. "#tick=K" in the
// URL opens the page paused at tick K. The bytes depend only on the list.
// The wide chart fits a laptop's viewport height (1366x660 shows every chart
// and gauge) without going under the width its text was sized for.
//
// For tests and tools: every op cell is a <rect class="op" data-start=...>;
// an element hidden at the current tick has style display:none; the <html>
// element carries data-tick (the tick shown), data-ready once the script has
// run, and data-error if a script error occurred.
#pragma once

#include <string>

#include "ppsim/render/display_list.h"
#include "ppsim/render/pacing.h"

namespace ppsim::render {

// `open_at` >= 0: the page opens paused at that tick (as with "#tick=K")
// instead of playing from tick 0.
std::string WriteHtml(const DisplayList& list, const Pacing& pacing, Tick open_at = -1);

}  // namespace ppsim::render

// SVG painters of a DisplayList: the frame at one tick (text as SVG <text>
// in DejaVu Sans), or the whole animation with SMIL (`--animated`). Output
// bytes depend only on the list.
#pragma once

#include <string>

#include "ppsim/render/display_list.h"
#include "ppsim/render/pacing.h"

namespace ppsim::render {

std::string WriteSvg(const DisplayList& list, Tick t);

// Items appear at their tick, growing cells widen, the closing lines stay.
std::string WriteAnimatedSvg(const DisplayList& list, const Pacing& pacing);

}  // namespace ppsim::render

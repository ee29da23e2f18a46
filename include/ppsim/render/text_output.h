// Text output end to end, with no font library: the layout measured in
// character cells (CellMeasurer) and painted by PaintText (text_painter.h).
// `ppsim render --format text`, `ppsim simulate --format text`, `ppsim
// search` and Python's search result all print this one chart.
#pragma once

#include <cstdint>
#include <string>

#include "ppsim/error.h"
#include "ppsim/render/display_list.h"
#include "ppsim/render_limits.h"
#include "ppsim/run.h"
#include "ppsim/render/layout.h"

namespace ppsim::render {

// The frame a text layout is made on: the largest Layout() takes, so that
// cycles (and devices) aggregate only beyond 16000 or so of them; below that
// the painter alone decides how many share a column, from the terminal's width.
inline constexpr int kTextFrame = kMaxFramePx;

// A text chart is drawn from at most this many stage-microbatches (P·v·M
// summed over the runs). The layout keeps about 1 KB per op (measured: P = 8,
// M = 4096, 65536 ops, in 0.3 s and 62 MB), and beyond this a 100-column chart
// shows hundreds of cycles a column. A picture's limit is larger
// (render.h): it is drawn once, not printed on every `simulate`.
inline constexpr std::int64_t kMaxTextStageMicrobatches = std::int64_t{1} << 18;

// The width text is laid out for when no terminal says otherwise: what
// `compare` fits when stdout is not a tty.
inline constexpr int kDefaultTextColumns = 80;

struct TextOptions {
  int columns = 0;    // terminal width (0 = kDefaultTextColumns)
  bool ansi = false;  // the palette's colours, for a terminal
};

// `input` laid out for text: on a kTextFrame square, measured in cells.
// kTooLarge, with the total, beyond kMaxTextStageMicrobatches.
Result<DisplayList> LayOutText(const LayoutInput& input);

// LayOutText + PaintText of the final frame.
Result<std::string> RenderText(const LayoutInput& input, const TextOptions& options);

// One run, captioned with its name: the chart `simulate --format text` and
// `search` print above their summary. REQUIRES: run.metrics measured with
// the series.
Result<std::string> RenderRunText(const Run& run, const TextOptions& options);

}  // namespace ppsim::render

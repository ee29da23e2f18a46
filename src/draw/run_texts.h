// One run's texts above its chart: the caption on the left and, on the
// right, the run's numbers at each tick, then its totals once it is done. In
// a frame too narrow for both on one line (a phone's page) the caption,
// wrapped if need be, stands over its numbers, each broken in two lines.
#pragma once

#include <vector>

#include "layout_builder.h"
#include "ppsim/render/layout.h"

namespace ppsim::render {

// How every run's caption and numbers are laid out.
struct RunTextsPlan {
  bool stacked = false;   // caption over numbers, for every run
  int caption_lines = 1;  // stacked: the most lines a caption takes
  int status_lines = 1;   // stacked: 2, each status broken at the " · " nearest its middle
  double status_px = 0;   // the numbers' size (side by side: at most this; each run fits its own)
};

// REQUIRES: f.agg and f.right set. Stacked iff some run's caption, at the
// size that fits, would reach its numbers.
RunTextsPlan PlanRunTexts(Builder& b, const Frame& f, const std::vector<RunInput>& runs, double caption_px,
                          double status_px, double text_w, GaugeMode gauge);

// `text_w` is the width available for both; `gauge` says what the "held"
// figure counts (the fullest device, or all devices).
void LayoutRunTexts(Builder& b, const Frame& f, const RunGeometry& g, const RunInput& run, int index,
                    double caption_px, const RunTextsPlan& plan, double text_w, GaugeMode gauge);

}  // namespace ppsim::render

// One run's texts above its chart: the caption on the left and, on the
// right, the run's numbers at each tick, then its totals once it is done.
#pragma once

#include "layout_builder.h"
#include "ppsim/render/layout.h"

namespace ppsim::render {

// `text_w` is the width available for both; `gauge` says what the "held"
// figure counts (the fullest device, or all devices).
void LayoutRunTexts(Builder& b, const Frame& f, const RunGeometry& g, const RunInput& run, int index,
                    double caption_px, double status_px, double text_w, GaugeMode gauge);

}  // namespace ppsim::render

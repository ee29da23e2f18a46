// The legend of a page of charts (layout.cc): a swatch and a label for
// every colour the charts draw — the kinds of ops, the bubble, the gauge's
// series, what a later chunk or an overlapped pair means, the mixes of
// aggregated cells, the communication lanes and the runs' marks.
#pragma once

#include <set>
#include <vector>

#include "layout_builder.h"
#include "ppsim/render/layout.h"

namespace ppsim::render {

// Whether a run models communication as ops (docs/comms.md): its chart has lanes.
bool AnyComms(const std::vector<RunInput>& runs);

// Swatches and labels in one row, wrapping when wider than the frame, from
// `y`; returns the y below. Only the kinds drawn are listed; a rule that
// holds for some runs only (what ·c1 means, an overlapped pair) names them;
// `mixes` are the kinds (KindsMix's bits) of the aggregated cells drawn in
// a mix of colours; `lanes`: the charts draw communication lanes (only
// when each device has a row of its own), so their colours are listed.
double Legend(Builder& b, const Frame& f, const LayoutInput& in, double y, const std::set<int>& mixes, bool lanes);

}  // namespace ppsim::render

// Legibility is checked, not hoped for: every text box of a DisplayList is
// measured again with Pango and must lie inside the frame, inside its
// container (a label inside its cell) and clear of every other text that can
// be visible at the same tick.
#pragma once

#include "ppsim/error.h"
#include "ppsim/render/display_list.h"
#include "ppsim/render/text_metrics.h"

namespace ppsim::render {

// Returns kOk, or kLegibility with a message naming the labels at fault
// ("\"d3\" overlaps \"held\"; \"F12\" is clipped by its cell; ...").
Error CheckLegibility(const DisplayList& list, TextMeasurer& measurer);

}  // namespace ppsim::render

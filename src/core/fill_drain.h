// What GPipe and 1F1B share: with one chunk per device and equal stages, the
// pipeline fills once and drains once, so either order ends at (M+P-1)(F+B)
// with the bubble (P-1)/M. Their predictions start from this and differ only
// in the activations each device holds.
#pragma once

#include "ppsim/generators.h"

namespace ppsim {

// The makespan and bubble of one fill and one drain, with their formulas.
Prediction FillDrainPrediction(const Problem& p);

}  // namespace ppsim

// The `--cost` syntax: comma-separated KIND=VALUE, KIND one of F, B, W, FB,
// BW; VALUE a positive integer (every stage) or a colon-separated list with
// one value per stage: "F=1,B=2,W=1", "F=3:1:1:2,B=2". Each item sets the
// key costs.KIND of the key table (problem_keys.h).
#pragma once

#include <string_view>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim {

// Applies `spec` on top of `costs` (all of it, or nothing). Returns Ok, or an
// Error on the field "costs" naming the bad item with the key table's code
// and words: "costs: 'F=0': costs.F must be ≥ 1, got 0"; an unknown kind is
// kUnknownName.
Error ApplyCostSpec(std::string_view spec, Costs& costs);

}  // namespace ppsim

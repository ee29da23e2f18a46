// The `--cost` syntax: comma-separated KIND=VALUE, KIND one of F, B, W, FB;
// VALUE a positive integer (every stage) or a colon-separated list with one
// value per virtual stage: "F=1,B=2,W=1", "F=3:1:1:2,B=2".
#pragma once

#include <string_view>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim {

// Applies `spec` on top of `costs`. Returns kOk, or a kInvalidValue Error
// naming the bad item ("--cost: 'X=1': unknown kind X (known: F, B, W, FB)").
Error ApplyCostSpec(std::string_view spec, Costs& costs);

// Parses a whole decimal int64 ("12"); false on junk, sign or overflow.
bool ParseTick(std::string_view text, Tick& out);

}  // namespace ppsim

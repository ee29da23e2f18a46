// Shared by the fuzz targets: a bound on how much work one input may ask
// for, so that a fuzzer explores readers instead of simulating huge problems
// (the size limits themselves are tested elsewhere).
#pragma once

#include "ppsim/problem.h"

namespace ppsim::fuzz {

inline constexpr long long kMaxFuzzOps = 20'000;

inline bool Small(const Problem& p) { return static_cast<long long>(p.P) * p.v * p.M * 3 <= kMaxFuzzOps; }

}  // namespace ppsim::fuzz

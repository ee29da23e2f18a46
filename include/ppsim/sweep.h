// Counterexample search: a scene's claims evaluated over a grid of top-level
// values (`ppsim check SCENE --sweep P=1..16 --sweep M=1..64`). Each grid
// point is the scene loaded with the point's values as --set overrides, so
// any key --set accepts can be swept (P, M, v, comm, costs.B, a parameter).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ppsim/claims.h"
#include "ppsim/error.h"

namespace ppsim {

// One swept key and its values, from "KEY=A..B" (inclusive) or "KEY=A,B,C".
struct SweepAxis {
  std::string key;
  std::vector<std::int64_t> values;
};
// kUsage naming the spec on bad syntax, an empty range or over kMaxSweepPoints values.
Result<SweepAxis> ParseSweepAxis(std::string_view spec);

inline constexpr std::int64_t kMaxSweepPoints = 10'000'000;  // refuse larger grids up front

struct Counterexample {
  std::vector<std::pair<std::string, std::int64_t>> params;  // the point, in axis order
  ClaimResult claim;                                         // the false claim, with its values
};

struct SweepResult {
  std::int64_t tried = 0;    // grid points whose claims were evaluated
  std::int64_t skipped = 0;  // points where a run cannot be simulated (a precondition, ...)
  std::string first_skip;    // the smallest skipped point and why ("P=3 M=4: run ...")
  // Smallest first: by the sum of the point's values, then by the values in
  // axis order; within a point, in the scene's claim order.
  std::vector<Counterexample> counterexamples;
};

// Sweeps the scene `text` (named `path` in errors) with fixed `overrides`
// (--set) under every combination of `axes`, on `threads` threads (0 = one
// per core; capped at the cores and the points). An error in the scene
// itself, or an axis key the scene does not have, is an Error; a point that
// cannot be simulated is skipped.
Result<SweepResult> Sweep(std::string_view text, const std::string& path, const std::vector<std::string>& overrides,
                          const std::vector<SweepAxis>& axes, int threads = 0);

}  // namespace ppsim

// Counterexample search: a scene's claims evaluated over a grid of top-level
// values (`ppsim check SCENE --sweep P=1..16 --sweep M=1..64`). Each grid
// point is the scene loaded with the point's values as --set overrides, so
// any key --set accepts can be swept (P, M, v, comm, costs.B, a parameter).
//
// Grid points are numbered k = 0, 1, ... with axis 0 varying slowest (the
// last --sweep fastest). A sweep can be split into N shards that separate
// processes run (a job array): shard i (1-based) runs exactly the points with
// k mod N == i - 1, and sweep_merge.h joins their results into the unsplit one.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ppsim/claims.h"
#include "ppsim/error.h"

namespace ppsim::scene {

// One swept key and its values, from "KEY=A..B" (inclusive) or "KEY=A,B,C".
struct SweepAxis {
  std::string key;
  std::vector<std::int64_t> values;
};
// kUsage placed at the spec (Via("sweep", spec)) on bad syntax or an empty
// range, kTooLarge over kMaxSweepPoints values; a key of the key table
// (problem_keys.h) with a value out of its range is the table's error
// ("sweep P=0..4: P must be ≥ 1, got 0"; the CLI prints "--sweep P=0..4: ...").
Result<SweepAxis> ParseSweepAxis(std::string_view spec);

inline constexpr std::int64_t kMaxSweepPoints = 10'000'000;  // refuse larger grids up front

// Grid point k's values, in axis order. REQUIRES: 0 <= k < the grid's size.
std::vector<std::pair<std::string, std::int64_t>> SweepPoint(const std::vector<SweepAxis>& axes, std::int64_t k);
// "Smallest first": true iff point a comes before point b — by the sum of the
// point's values, then by grid index.
bool SweepPointBefore(const std::vector<SweepAxis>& axes, std::int64_t a, std::int64_t b);

// Shard `index` of `count` (1 <= index <= count): the grid points k with
// k mod count == index - 1. The default, 1 of 1, is the whole grid.
struct SweepShard {
  std::int64_t index = 1;
  std::int64_t count = 1;
};
// From "I/N"; kUsage placed at Via("shard", spec) when it is not two whole numbers with
// 1 <= I <= N (0/3, 4/3, 1/0, x are refused).
Result<SweepShard> ParseSweepShard(std::string_view spec);
// How many of a `points`-point grid's points `shard` runs.
std::int64_t ShardPoints(std::int64_t points, const SweepShard& shard);

struct Counterexample {
  std::int64_t point = 0;                                    // its grid index k
  std::vector<std::pair<std::string, std::int64_t>> params;  // the point, in axis order
  ClaimResult claim;                                         // the false claim, with its values
};

struct SweepResult {
  std::int64_t points = 0;   // the whole grid's size (every shard's)
  std::int64_t tried = 0;    // grid points (of this shard) whose claims were evaluated
  std::int64_t skipped = 0;  // points where a run cannot be simulated (a precondition, ...)
  std::string first_skip;    // the smallest skipped point and why ("P=3 M=4: run ...")
  std::int64_t first_skip_point = -1;  // its grid index; -1 if none was skipped
  // Smallest first: by the sum of the point's values, then by the values in
  // axis order; within a point, in the scene's claim order.
  std::vector<Counterexample> counterexamples;
};

// How a long sweep is watched and stopped (the CLI: a progress line on a
// terminal, SIGINT and SIGTERM). Both optional.
struct SweepControl {
  // Called on the calling thread about every `every` seconds with the points
  // done so far of this shard's `total`, and once more at the end.
  std::function<void(std::int64_t done, std::int64_t total)> progress;
  double every = 0.25;
  // Set to true (from a signal handler, say): each worker stops after its
  // current point, and Sweep returns kInterrupted saying how far it got.
  const std::atomic<bool>* stop = nullptr;
};

// Sweeps the scene `text` (named `path` in errors) with fixed `overrides`
// (--set) under every combination of `axes` that `shard` owns, on `threads`
// threads (0 = one per core; capped at the cores and the points). An error in
// the scene itself, or an axis key the scene does not have, is an Error; a
// point that cannot be simulated is skipped.
Result<SweepResult> Sweep(std::string_view text, const std::string& path, const std::vector<std::string>& overrides,
                          const std::vector<SweepAxis>& axes, int threads = 0, const SweepShard& shard = {},
                          const SweepControl& control = {});

}  // namespace ppsim::scene

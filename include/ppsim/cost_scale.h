// One model across runs (docs/costs.md). With CostBasis::kStage a cost
// describes one device's share of the model — a whole stage at v = 1 — and
// a run that cuts that share into n chunks (n = ChunksPerStage) costs 1/n of
// it per chunk. Ticks stay integers: every cost and latency is multiplied by
// one factor k, the ticks in a unit, chosen as the smallest k that makes every
// chunk of every run in a comparison a whole number of ticks. So 1F1B and
// interleaved (v = 2) at F = B = 1 run at k = 2: 1F1B's ops take 2 ticks,
// interleaved's chunks 1 — equal work, and the bubble is seen to halve.
// With CostBasis::kChunk each value is one op's cost as given, k = 1.
//
// Typical use, once every run's v and placement are known (ResolveRun):
//   std::int64_t k = TicksPerUnit(problems);    // the common scale
//   for (Problem& p : problems) ScaleCosts(p, k);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/rational.h"

namespace ppsim {

// Into how many chunks the run cuts one device's share of the model: v for
// loop and V-shape placement; 1 for DualPipe, whose two stages per device are
// two whole stages of two model copies; times the sequence slices (a
// slice's activations are 1/K of its microbatch's, slices.h).
int ChunksPerStage(const Problem& problem);

// The smallest k ≥ 1 such that k·c / ChunksPerStage(p) is whole for every
// cost value c of every problem p with CostBasis::kStage (problems already
// scaled, or with CostBasis::kChunk, need nothing). kTooLarge if k does not
// fit in 64 bits. REQUIRES: each problem's v and placement are its run's.
// `split[i]` false: run i has no W ops (GeneratorInfo::split_backward), so
// its W cost does not constrain k; empty = every run may have W.
Result<std::int64_t> TicksPerUnit(const std::vector<Problem>& problems, const std::vector<bool>& split = {});

// Rewrites p's costs (expanding a per-model-stage list to one value per
// virtual stage) and latencies into ticks at k ticks per unit and sets
// p.ticks_per_unit = k. No-op if p is already scaled. kTooLarge naming the
// field if a value would exceed kMaxCost; kInvalidValue if k does not make
// every chunk whole. REQUIRES: k from TicksPerUnit over a set holding p
// (with the same `split`; an unused W is rounded down, to at least 1 tick).
Error ScaleCosts(Problem& p, std::int64_t k, bool split = true);

// B, W and the whole backward BW of an unscaled problem, in its units, as
// the model derives them (docs/costs.md "One model of work": halves of BW
// when neither half is given, ...); each nullopt unless it is one value for
// every stage. What claims call B, W and BW.
struct BackwardCosts {
  std::optional<Rational> b, w, bw;
};
BackwardCosts UniformBackward(const Problem& p);

// For people: "1 tick = 1 unit", "1 tick = 1/2 unit" (units being stage
// costs or chunk costs, as the basis says), for a scaled problem.
std::string TickScaleText(const Problem& p);
// "costs per stage (a chunk costs 1/v)" or "costs per chunk (as given)".
std::string CostBasisText(const Problem& p);

}  // namespace ppsim

// Sequence slices (Seq1F1B, NAACL 2025; TeraPipe; SlimPipe): each microbatch
// is cut into K equal slices of its sequence, and every slice is an op of
// its own. Op ids count slice units (Problem::Space): unit u is microbatch
// u / K, slice u % K. With causal attention a slice needs the keys and
// values of the slices before it, so besides the chain of stages:
//
//   F(m,k,s) waits on F(m,k,s-1) + c (s > 0) and on F(m,k-1,s) (k > 0)
//   B(m,k,s) waits on B(m,k,s+1) + c (or F(m,k,S-1) on the last stage)
//            and on B(m,k+1,s) (k < K-1): backward slices run K-1 .. 0
//   W(m,k,s) waits on B(m,k,s)
//
// The same-stage edges are data dependencies of the runtime (the K/V cache
// and its gradient), not edges of the Zero Bubble code's graph; ppsim makes
// them explicit so that an order that breaks them waits or deadlocks
// (docs/semantics.md, "Sequence slices").
//
// Costs: a microbatch's cost on a stage splits over its slices by weight
// (SliceWeights); a slice's activations are 1/K of the microbatch's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op_graph.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"
#include "ppsim/timeline.h"

namespace ppsim {

// The relative cost of each of the K slices, reduced by their gcd:
//   kEqual   1 each
//   kCausal  12·hidden·K + seq_len·(2k+1) for slice k: Megatron's forward
//            FLOPs per layer, 24·b·s·h² (linear) + 4·b·s²·h (attention),
//            for a slice of l = seq_len/K tokens whose queries attend to a
//            prefix of k·l + (l+1)/2 keys on average under the causal mask
//   kList    Problem::slice_weights
// REQUIRES: CheckSlices(p) ok.
std::vector<Tick> SliceWeights(const Problem& p);
// Their sum: the cost of one microbatch in weight units (K when equal).
Tick SliceWeightTotal(const Problem& p);

// Checks the slice fields before anything is allocated: K in [1,
// kMaxSlices]; a list of exactly K weights ≥ 1; seq_len divisible by K when
// given; causal needs seq_len and hidden. kInvalidValue / kTooLarge naming
// the key ("slice_costs: 3 values given for 2 slices").
Error CheckSlices(const Problem& p);

// Every op `id` may wait on, in the order placement's graph lists them
// (BuildSliceGraph): the chain's one dependency (DependencyOf), a slice's
// same-stage one (F after F(u-1,s) when k > 0, B after B(u+1,s) when
// k < K-1), then recompute's (B after R(u,s) when the space has R ids; R
// after B(u,s+1) when `at` is kBeforeB). An id may name an op the schedule
// does not run (an R of a stage that recomputes nothing): callers skip
// those. Writes at most 3 ids to `deps`; returns how many. Used by
// validate.h and critical_path.h, so they apply placement's rules.
int DependenciesOf(const OpSpace& space, int slices, RecomputeAt at, OpId id, OpId deps[3]);

// "F3.1@s0" for unit 3·K+1 of F at stage 0; OpName when K = 1.
std::string SliceOpName(const OpSpace& space, int slices, OpId id);

// The dependency graph of a sliced problem over `schedule`'s id space,
// durations from the scaled costs times each slice's weight and its
// microbatch's (Problem::microbatch_weights).
// REQUIRES: p scaled (ScaleCosts), CheckComplete(p, schedule) ok.
OpGraph BuildSliceGraph(const Problem& p, const Schedule& schedule);

// Place() for sliced problems (Problem::slices > 1) and per-microbatch
// costs (Problem::microbatch_weights): over BuildSliceGraph, every start
// stored. kBadSchedule for an overlapped pair; kDeadlock naming the cycle
// of waits.
Error PlaceSliced(const Problem& p, Schedule&& schedule, Timeline& t);

}  // namespace ppsim

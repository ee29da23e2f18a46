// Recompute as an op. Activation checkpointing keeps only a stage's layer
// inputs after its forward and runs the forward again, R(m,s), before the
// backward B(m,s) needs the activations (Megatron's
// --recompute-granularity full|selective; torchtitan's activation
// checkpointing; the Zero Bubble runtime's R op). R runs on B's device,
// costs the stage's F (full) or its recomputed layers' F (selective, from
// a model file: Costs::r), and B waits on it:
//
//   R(m,s) waits on F(m,s)                      (it rebuilds F's activations)
//          and, with RecomputeAt::kBeforeB, on B's own incoming gradient,
//          B(m,s+1) + c (Megatron recomputes inside the backward call)
//   B(m,s) waits on R(m,s) as well as on its usual dependencies
//
// Every registry schedule runs R right before its B in the device's queue
// (InsertRecompute); kEarly (Mario-like, PPoPP 2025) keeps that queue
// position but drops R's wait on the gradient, so R runs as soon as its
// device is free: in the idle time before the gradient arrives. Same work,
// R only earlier on its own device, never before its F.
//
// Memory (docs/semantics.md, "Recompute"): between F's end and R's start a
// stage holds only its inputs (MemoryModel::input_bytes, or the fraction
// recompute_inputs_num/den of its activation bytes); from R's start the
// full set, until the hold rule frees it (start of B when held; end of B,
// or of W for its share, when resident — where resident also counts the
// full set during F itself). Counted in stage-sets, a recomputed set counts
// from R's start only: the inputs are bytes, not a set.
#pragma once

#include <cstdint>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

inline bool Recomputes(const Problem& p) { return p.recompute != RecomputeMode::kOff; }

// Whether stage `s` runs an R op: recompute on and its R costs > 0.
bool HasRecompute(const Problem& p, int stage);

// Bytes stage `s` holds per microbatch between F and R: input_bytes when
// given, else floor(activation bytes × num / den).
std::int64_t RecomputeInputBytes(const Problem& p, int stage);

// Checks the recompute fields (ValidateProblem calls it): the input fraction
// in [0, 1]; R costs in [0, kMaxCost]; selective needs Costs::r (a model
// file); a recomputed stage must hold activations (activation_bytes > 0
// when bytes are given); no sequence slices and no communication ops.
// kInvalidValue / kPrecondition with field "recompute" or
// "recompute_inputs": "recompute: stage 2 holds no activations
// (memory.activation_bytes[2] = 0): nothing to recompute".
Error CheckRecompute(const Problem& p);

// Puts R(m,s) right before each B(m,s) of a stage with recompute in its
// device's queue and gives the schedule a space with R ids. A schedule that
// lists R ops already (a file) keeps them where they are; kBadSchedule when
// a slot is an overlapped pair ("recompute runs no overlapped pairs").
// REQUIRES: Recomputes(p).
Error InsertRecompute(const Problem& p, Schedule& schedule);

// The cost-only form of recompute, for what orders no R op (the layout
// search): R's ticks added to B, the inputs' bytes as the activation bytes,
// recompute off. REQUIRES: p not scaled yet.
void FoldRecomputeIntoB(Problem& p);

}  // namespace ppsim

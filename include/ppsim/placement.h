// Placement: each op starts at the earliest tick its device and its
// dependencies allow (docs/semantics.md):
//   F(m,s)   >= end F(m,s-1) + c      B(m,s) >= end B(m,s+1) + c
//   B(m,S-1) >= end F(m,S-1)          W(m,s) >= end B(m,s)
// and after the previous op on its device; c only between devices. A full
// backward (Slot::full) is one op of cost B+W: B(m,s-1) waits
// for its whole end, and it has no W.
#pragma once

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"
#include "ppsim/timeline.h"

namespace ppsim {

// The op that `id` waits on (its one data dependency), or kNoOp. Every op
// has at most one: the chain F(m,0..S-1) -> B(m,S-1..0), W(m,s) after B(m,s).
OpId DependencyOf(const OpSpace& space, bool split_backward, OpId id);
// The same, of an op already decoded (space.At(id)), with no division.
inline OpId DependencyOf(const OpSpace& space, const Op& op) {
  switch (op.kind) {
    case OpKind::kF:
      return !space.IsFirstStage(op.stage) ? space.Id(OpKind::kF, op.microbatch, op.stage - 1) : kNoOp;
    case OpKind::kB:
      return !space.IsLastStage(op.stage) ? space.Id(OpKind::kB, op.microbatch, op.stage + 1)
                                          : space.Id(OpKind::kF, op.microbatch, op.stage);
    case OpKind::kW:
      return space.Id(OpKind::kB, op.microbatch, op.stage);
    case OpKind::kR:  // its own F (recompute.h); Megatron's R also waits on B's gradient
      return space.Id(OpKind::kF, op.microbatch, op.stage);
  }
  return kNoOp;
}

// Places `schedule` in time. O(ops): every op is visited once.
// REQUIRES: ValidateProblem(problem) and CheckComplete(problem, schedule) ok.
// Returns a kDeadlock Error that spells out the cycle of waiting ops when
// the order can never complete.
Result<Timeline> Place(const Problem& problem, Schedule schedule);

// Place() into `out`, reusing its buffers: no allocation once they are large
// enough. For loops that place many schedules (sweeps, benchmarks); take the
// schedule back with std::move(out.schedule) to reuse it too.
Error PlaceInto(const Problem& problem, Schedule&& schedule, Timeline& out);

}  // namespace ppsim

// The ticks one compute action of a comm program lasts: its op's cost, a
// full backward's B + W, or an overlapped pair's cost; or the op's own
// duration when the problem gives each op one. Both comm placements
// (comm_walk.cc, comm_graph_run.cc) read it.
#pragma once

#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::comm {

inline Tick SlotTicks(const Problem& problem, const OpSpace& space, const Slot& slot) {
  if (!problem.op_durations.empty()) return problem.op_durations[slot.op];
  const Op a = space.At(slot.op);
  if (!slot.pair()) return slot.full ? problem.costs.FullBackward(a.stage) : problem.costs.Of(a.kind, a.stage);
  const Op b = space.At(slot.overlapped);
  return a.kind == OpKind::kF ? problem.costs.Overlapped(a.stage, b.stage, slot.full)
                              : problem.costs.Overlapped(b.stage, a.stage, slot.full);
}

}  // namespace ppsim::comm

#include "ppsim/critical_path.h"

#include <algorithm>

#include "ppsim/placement.h"
#include "ppsim/slices.h"

namespace ppsim {
namespace {

// Where each op's slot sits: device and position in that device's queue.
struct SlotAt {
  int device = -1;
  int index = -1;
};

std::vector<SlotAt> SlotIndex(const Timeline& t) {
  std::vector<SlotAt> at(t.end.size());
  for (int d = 0; d < static_cast<int>(t.schedule.devices.size()); ++d) {
    const auto& queue = t.schedule.devices[d];
    for (int i = 0; i < static_cast<int>(queue.size()); ++i)
      for (OpId id : {queue[i].op, OpId{queue[i].overlapped}})
        if (id != kNoOp) at[id] = {d, i};
  }
  return at;
}

}  // namespace

std::vector<CriticalStep> CriticalPath(const Timeline& t) {
  std::vector<CriticalStep> steps;
  const auto& devices = t.schedule.devices;
  // The last slot ending at the makespan, lowest device first.
  int d = -1, i = -1;
  for (int dev = 0; dev < static_cast<int>(devices.size()) && d < 0; ++dev)
    if (!devices[dev].empty() && t.end[devices[dev].back().op] == t.makespan)
      d = dev, i = static_cast<int>(devices[dev].size()) - 1;
  if (d < 0) return steps;
  const std::vector<SlotAt> at = SlotIndex(t);
  const OpSpace& space = t.schedule.space;
  while (true) {
    const Slot& slot = devices[d][i];
    const Tick start = t.Start(slot.op);
    CriticalStep step{slot.op, CriticalStep::Via::kStart};
    int next_d = -1, next_i = -1;
    if (start > 0) {
      for (OpId id : {slot.op, OpId{slot.overlapped}}) {
        if (id == kNoOp) continue;
        // Every dependency placement gave it (slices, R), the chain's first.
        OpId deps[3];
        const int n = DependenciesOf(space, t.problem.slices, t.problem.recompute_at, id, deps);
        for (int j = 0; j < n && next_d < 0; ++j) {
          const OpId dep = deps[j];
          if (!t.Has(dep)) continue;
          const int a = space.At(dep).stage, b = space.At(id).stage;
          const Tick latency = a == b ? 0 : t.problem.CommBetween(a, b);
          if (t.end[dep] + latency == start) {
            next_d = at[dep].device, next_i = at[dep].index;
            step.via = CriticalStep::Via::kDependency;
          }
        }
      }
      if (next_d < 0 && i > 0 && t.end[devices[d][i - 1].op] == start) {
        next_d = d, next_i = i - 1;
        step.via = CriticalStep::Via::kDevice;
      }
    }
    steps.push_back(step);
    if (next_d < 0) break;  // tick 0 (or, off Place()'s output, no tight predecessor)
    d = next_d, i = next_i;
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

std::vector<int> CriticalPathIndices(const Timeline& t) {
  // Positions in Ops(): devices in order, each slot's op then its pair.
  std::vector<int> position(t.end.size(), -1);
  int n = 0;
  for (const auto& queue : t.schedule.devices)
    for (const Slot& slot : queue)
      for (OpId id : {slot.op, OpId{slot.overlapped}})
        if (id != kNoOp) position[id] = n++;
  std::vector<int> out;
  for (const CriticalStep& s : CriticalPath(t)) out.push_back(position[s.op]);
  return out;
}

}  // namespace ppsim

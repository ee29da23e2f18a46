#include "search_budget.h"

#include <algorithm>

namespace ppsim::search {

Budget SetBudget(const Problem& p, std::int64_t max_activations) {
  Budget b;
  b.capacity.assign(p.P, max_activations * p.v);
  b.units.assign(p.stages(), 1);
  b.by_b.assign(p.stages(), 0);
  b.unit = "stage-sets";
  return b;
}

Budget ByteBudget(const Problem& p) {
  Budget b;
  b.capacity.assign(p.P, p.memory.limit);
  b.units.assign(p.stages(), 0);
  b.by_b.assign(p.stages(), 0);
  for (int s = 0; s < p.stages(); ++s) {
    b.capacity[p.DeviceOf(s)] -= p.memory.StaticBytes(s);
    b.units[s] = p.memory.ActivationBytes(s);
    b.by_b[s] = b.units[s] * p.memory.freed_by_b_percent / 100;  // as memory_bytes.cc splits it
  }
  b.unit = "bytes";
  return b;
}

namespace {

// Walks one queue; returns its peak (what it holds when some op starts).
std::int64_t QueuePeak(const Budget& b, const OpSpace& space, const std::vector<Slot>& queue) {
  std::int64_t held = 0, peak = 0;
  for (const Slot& slot : queue) {
    for (OpId id : {slot.op, OpId{slot.overlapped}}) {
      if (id == kNoOp) continue;
      const Op op = space.At(id);
      if (op.kind == OpKind::kF) held += b.units[op.stage];
    }
    peak = std::max(peak, held);
    for (OpId id : {slot.op, OpId{slot.overlapped}}) {
      if (id == kNoOp) continue;
      const Op op = space.At(id);
      if (op.kind == OpKind::kB) held -= b.by_b[op.stage];
      if (op.kind == OpKind::kW) held -= b.units[op.stage] - b.by_b[op.stage];
    }
  }
  return peak;
}

}  // namespace

std::vector<std::int64_t> PeakUnits(const Budget& b, const Problem& p, const Schedule& s) {
  std::vector<std::int64_t> peaks(p.P, 0);
  for (int d = 0; d < p.P; ++d) peaks[d] = QueuePeak(b, s.space, s.devices[d]);
  return peaks;
}

bool DeviceFits(const Budget& b, const OpSpace& space, const std::vector<Slot>& queue, std::int64_t capacity) {
  return QueuePeak(b, space, queue) <= capacity;
}

bool Fits(const Budget& b, const Problem& p, const Schedule& s) {
  for (int d = 0; d < p.P; ++d)
    if (!DeviceFits(b, s.space, s.devices[d], b.capacity[d])) return false;
  return true;
}

}  // namespace ppsim::search

#include "search_budget.h"

#include <algorithm>

#include "ppsim/recompute.h"

namespace ppsim::search {

Budget SetBudget(const Problem& p, std::int64_t max_activations) {
  Budget b;
  b.capacity.assign(p.P, max_activations * p.v);
  b.units.assign(p.stages(), 1);
  b.by_b.assign(p.stages(), 0);
  b.kept = b.units;
  for (int s = 0; s < p.stages(); ++s)
    if (HasRecompute(p, s)) b.kept[s] = 0;  // the inputs are bytes, not a set
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
  b.kept = b.units;
  for (int s = 0; s < p.stages(); ++s)
    if (HasRecompute(p, s)) b.kept[s] = RecomputeInputBytes(p, s);
  b.unit = "bytes";
  return b;
}

std::int64_t TakenAt(const Budget& b, OpKind kind, int s, bool r_listed) {
  const std::int64_t rebuilt = b.units[s] - b.kept[s];  // what R makes whole again
  switch (kind) {
    case OpKind::kF: return b.units[s];
    case OpKind::kR: return rebuilt;
    case OpKind::kB: return r_listed ? 0 : rebuilt;
    default: return 0;
  }
}

std::int64_t HeldChange(const Budget& b, OpKind kind, int s, bool r_listed) {
  const std::int64_t rebuilt = b.units[s] - b.kept[s];
  switch (kind) {
    case OpKind::kF: return b.kept[s];
    case OpKind::kR: return rebuilt;
    case OpKind::kB: return (r_listed ? 0 : rebuilt) - b.by_b[s];
    case OpKind::kW: return -(b.units[s] - b.by_b[s]);
    default: return 0;
  }
}

namespace {

// Walks one queue; returns its peak (what it holds when some op starts).
std::int64_t QueuePeak(const Budget& b, const OpSpace& space, const std::vector<Slot>& queue) {
  const bool r_listed = space.recompute();
  std::int64_t held = 0, peak = 0;
  for (const Slot& slot : queue) {
    std::int64_t taken = 0, change = 0;
    for (OpId id : {slot.op, OpId{slot.overlapped}}) {
      if (id == kNoOp) continue;
      const Op op = space.At(id);
      taken += TakenAt(b, op.kind, op.stage, r_listed);
      change += HeldChange(b, op.kind, op.stage, r_listed);
    }
    peak = std::max(peak, held + taken);
    held += change;
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

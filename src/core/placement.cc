// Earliest-start placement.
//
// Every op starts at max(end of the previous op on its device, end of its
// dependency + latency). Both terms are ends of ops placed earlier in some
// topological order, so one visit per op suffices: the start never has to be
// revised later, and no backtracking or cycle stepping is needed. The order
// in which devices are visited does not change any start; we run each device
// as far as it can go and park it on the one op it waits for, waking it when
// that op's device has placed it. A state where every unfinished device is
// parked is a deadlock, and the parked devices spell out the cycle.
#include "ppsim/placement.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/fast_div.h"

namespace ppsim {

OpId DependencyOf(const OpSpace& space, bool split_backward, OpId id) {
  (void)split_backward;
  const Op op = space.At(id);
  switch (op.kind) {
    case OpKind::kF:
      return !space.IsFirstStage(op.stage) ? space.Id(OpKind::kF, op.microbatch, op.stage - 1) : kNoOp;
    case OpKind::kB:
      return !space.IsLastStage(op.stage) ? space.Id(OpKind::kB, op.microbatch, op.stage + 1)
                                          : space.Id(OpKind::kF, op.microbatch, op.stage);
    case OpKind::kW:
      return space.Id(OpKind::kB, op.microbatch, op.stage);
  }
  return kNoOp;
}

namespace {

// Per (kind, stage) row: what placement needs about its ops.
struct Row {
  Tick duration = 0;
  Tick latency = 0;     // added to the dependency's end
  OpId dep_delta = 0;   // dependency id = id + dep_delta
  bool has_dep = false;
  int dep_device = -1;  // device holding the dependency
};

// Duration of a compound slot: an overlapped F+B pair runs as one op, and a
// full backward costs B+W (Costs::FullBackward) though its row says B.
Tick SlotDuration(const Problem& problem, const OpSpace& space, const Slot& slot) {
  const Op a = space.At(slot.op);
  if (!slot.pair()) return slot.full ? problem.costs.FullBackward(a.stage) : problem.costs.Of(a.kind, a.stage);
  const Op b = space.At(slot.overlapped);
  return a.kind == OpKind::kF ? problem.costs.Overlapped(a.stage, b.stage, slot.full)
                              : problem.costs.Overlapped(b.stage, a.stage, slot.full);
}

std::string DeadlockMessage(const Problem& problem, const OpSpace& space, const Schedule& schedule,
                            const std::vector<size_t>& cursor, const std::vector<OpId>& waits_on) {
  // Follow device -> device holding the op it waits on, until one repeats.
  int d = -1;
  for (int i = 0; i < problem.P; ++i)
    if (waits_on[i] != kNoOp) { d = i; break; }
  std::vector<int> seen_at(problem.P, -1);
  std::vector<int> path;
  while (d >= 0 && seen_at[d] < 0) {
    seen_at[d] = static_cast<int>(path.size());
    path.push_back(d);
    d = problem.DeviceOf(space.At(waits_on[d]).stage);
    if (waits_on[d] == kNoOp) break;  // cannot happen for a complete schedule
  }
  std::string msg = "deadlock:";
  const int first = d >= 0 && seen_at[d] >= 0 ? seen_at[d] : 0;
  for (size_t i = first; i < path.size(); ++i) {
    const int dev = path[i];
    const Slot& next = schedule.devices[dev][cursor[dev]];
    msg += (i == static_cast<size_t>(first) ? " " : "; ");
    msg += "device " + std::to_string(dev) + " waits on " + OpName(space.At(waits_on[dev])) + " before " +
           OpName(space.At(next.op));
  }
  return msg;
}

}  // namespace

Result<Timeline> Place(const Problem& problem, Schedule schedule) {
  Timeline t;
  Error e = PlaceInto(problem, std::move(schedule), t);
  if (e.code != ErrorCode::kOk) return e;
  return t;
}

Error PlaceInto(const Problem& problem, Schedule&& schedule, Timeline& t) {
  const OpSpace space = schedule.space;
  const int S = space.stages();
  const int M = space.microbatches();
  const int kinds = schedule.split_backward ? 3 : 2;
  const std::int64_t n = std::int64_t{kinds} * S * M;

  std::vector<Row> rows(static_cast<size_t>(kinds) * S);
  for (int k = 0; k < kinds; ++k) {
    for (int s = 0; s < S; ++s) {
      Row& r = rows[k * S + s];
      const OpKind kind = static_cast<OpKind>(k);
      r.duration = problem.costs.Of(kind, s);
      if (kind == OpKind::kF && !space.IsFirstStage(s)) {
        r = {r.duration, problem.CommBetween(s - 1, s), -1, true, problem.DeviceOf(s - 1)};
      } else if (kind == OpKind::kB && !space.IsLastStage(s)) {
        r = {r.duration, problem.CommBetween(s, s + 1), +1, true, problem.DeviceOf(s + 1)};
      } else if (kind == OpKind::kB) {
        r = {r.duration, 0, -S, true, problem.DeviceOf(s)};  // B after F on a chain's last stage
      } else if (kind == OpKind::kW) {
        r = {r.duration, 0, 0, true, problem.DeviceOf(s)};  // after B(m,s); see Decode
      }
    }
  }

  t.problem = problem;
  t.start.resize(n);    // filled from the ends once everything is placed
  t.end.assign(n, -1);  // -1: not placed yet
  Tick* const end = t.end.data();
  std::vector<Slot> compound;  // pairs and full backwards: their start is not end - row cost
  const FastDiv by_s(static_cast<std::uint32_t>(S));
  const OpId two_m = 2 * M;
  // The row of `id` and its dependency (microbatch-major ids, see op.h).
  auto decode = [&](OpId id, OpId& dep) -> const Row& {
    const OpId q = static_cast<OpId>(by_s.Div(static_cast<std::uint32_t>(id)));
    const OpId stage = id - q * S;
    if (q < two_m) [[likely]] {
      const Row& r = rows[(q & 1) * S + stage];
      dep = id + r.dep_delta;
      return r;
    }
    dep = (2 * (q - two_m) + 1) * S + stage;  // W(m,s) waits on B(m,s)
    return rows[2 * S + stage];
  };

  // Per device: its queue, how far it got, when it is free and, while
  // parked, the op it waits on. Devices parked on an op of device e form an
  // intrusive list from lanes[e].parked_head, so parking and waking allocate
  // nothing; a device is runnable, parked or finished, so P slots hold every
  // runnable one.
  struct Lane {
    const Slot* queue = nullptr;
    size_t size = 0;
    size_t cursor = 0;
    Tick free_at = 0;
    OpId waits_on = kNoOp;
    int parked_head = -1;
    int next_parked = -1;
  };
  const int P = problem.P;
  std::vector<Lane> lanes(P);
  std::vector<int> runnable(P);
  int top = 0;
  for (int d = P - 1; d >= 0; --d) {
    lanes[d].queue = schedule.devices[d].data();
    lanes[d].size = schedule.devices[d].size();
    runnable[top++] = d;
  }
  int finished = 0;

  while (top > 0) {
    const int d = runnable[--top];
    Lane& lane = lanes[d];
    const Slot* const queue = lane.queue;
    const size_t size = lane.size;
    size_t i = lane.cursor;
    Tick now = lane.free_at;
    OpId blocked_on = kNoOp;
    int blocked_device = -1;
    // A device typically places a few ops per run and resumes only after the
    // others have run, so fetch what its next run will read now: the next
    // cache lines of its queue and the end ticks its coming ops will write.
    if (i + 8 < size) {
      __builtin_prefetch(&queue[i + 8]);
      for (size_t k = i + 2; k < i + 6; ++k) __builtin_prefetch(&end[queue[k].op], 1);
    }
    for (; i < size; ++i) {
      const Slot slot = queue[i];
      OpId dep;
      const Row& r = decode(slot.op, dep);
      Tick ready = now;
      if (r.has_dep) {
        const Tick e = end[dep];
        if (e < 0) { blocked_on = dep; blocked_device = r.dep_device; break; }
        ready = std::max(ready, e + r.latency);
      }
      Tick duration = r.duration;
      if (slot.pair()) [[unlikely]] {
        OpId dep2;
        const Row& r2 = decode(slot.overlapped, dep2);
        if (r2.has_dep) {
          const Tick e = end[dep2];
          if (e < 0) { blocked_on = dep2; blocked_device = r2.dep_device; break; }
          ready = std::max(ready, e + r2.latency);
        }
        duration = SlotDuration(problem, space, slot);
        end[slot.overlapped] = ready + duration;
        compound.push_back(slot);
      } else if (slot.full) [[unlikely]] {
        duration = SlotDuration(problem, space, slot);
        compound.push_back(slot);
      }
      now = end[slot.op] = ready + duration;
    }
    lane.cursor = i;
    lane.free_at = now;
    if (i == size) {
      ++finished;
    } else {
      lane.waits_on = blocked_on;
      lane.next_parked = lanes[blocked_device].parked_head;
      lanes[blocked_device].parked_head = d;
    }
    // Wake the devices that waited on an op this run placed.
    for (int* link = &lanes[d].parked_head; *link >= 0;) {
      Lane& waiter = lanes[*link];
      if (end[waiter.waits_on] >= 0) {
        runnable[top++] = *link;
        waiter.waits_on = kNoOp;
        *link = waiter.next_parked;
      } else {
        link = &waiter.next_parked;
      }
    }
  }
  if (finished != P) {
    std::vector<size_t> cursor(P);
    std::vector<OpId> waits_on(P);
    for (int d = 0; d < P; ++d) {
      cursor[d] = lanes[d].cursor;
      waits_on[d] = lanes[d].waits_on;
    }
    return Fail(ErrorCode::kDeadlock, DeadlockMessage(problem, space, schedule, cursor, waits_on));
  }

  // Starts, in one sequential pass: the hot loop above writes only ends.
  Tick* const start = t.start.data();
  for (OpId q = 0; q < static_cast<OpId>(n / S); ++q) {
    const Row* row = &rows[(q < two_m ? (q & 1) : 2) * S];
    for (OpId s = 0; s < S; ++s) {
      const OpId id = q * S + s;
      start[id] = end[id] < 0 ? -1 : end[id] - row[s].duration;  // -1: no such op (DualPipe)
    }
  }
  for (const Slot& slot : compound) {
    start[slot.op] = end[slot.op] - SlotDuration(problem, space, slot);
    if (slot.pair()) start[slot.overlapped] = start[slot.op];
  }

  Tick makespan = 0;
  for (const Lane& lane : lanes) makespan = std::max(makespan, lane.free_at);
  t.makespan = makespan;
  t.schedule = std::move(schedule);
  return Error{ErrorCode::kOk, ""};
}

}  // namespace ppsim

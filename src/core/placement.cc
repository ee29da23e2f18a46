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
//
// PlaceInto in parts: the row table (what every op of one kind and stage
// needs), the device scheduler (PlaceEnds: run, park, wake) around the hot
// loop (RunLane: one device's ops until one waits), the deadlock report,
// then the starts, stored only when a slot is compound (FillStarts: from the
// ends, compound slots fixed up; timeline.h).
#include "ppsim/placement.h"

#include <algorithm>
#include <string>
#include <vector>

#include "fast_div.h"
#include "ppsim/microbatch_lengths.h"
#include "ppsim/recompute.h"
#include "ppsim/slices.h"

namespace ppsim {

OpId DependencyOf(const OpSpace& space, bool split_backward, OpId id) {
  (void)split_backward;
  return DependencyOf(space, space.At(id));
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

// One Row per (kind, stage), kinds F, B and, when split, W.
std::vector<Row> BuildRows(const Problem& problem, const OpSpace& space, int kinds) {
  const int S = space.stages();
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
  return rows;
}

// The row table as the hot loop reads it: a small value, kept in registers.
struct RowDecoder {
  const Row* rows;
  OpId S;
  OpId two_m;  // 2M: ids from two_m · S on are W ops
  FastDiv by_s;

  // The row of `id`, and its dependency in `dep` (microbatch-major ids, see op.h).
  const Row& Decode(OpId id, OpId& dep) const {
    const OpId q = static_cast<OpId>(by_s.Div(static_cast<std::uint32_t>(id)));
    const OpId stage = id - q * S;
    if (q < two_m) [[likely]] {
      const Row& r = rows[(q & 1) * S + stage];
      dep = id + r.dep_delta;
      return r;
    }
    dep = (2 * (q - two_m) + 1) * S + stage;  // W(m,s) waits on B(m,s)
    return rows[2 * S + stage];
  }
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

// Per device: its queue, how far it got, when it is free and, while parked,
// the op it waits on. Devices parked on an op of device e form an intrusive
// list from lanes[e].parked_head, so parking and waking allocate nothing.
struct Lane {
  const Slot* queue = nullptr;
  size_t size = 0;
  size_t cursor = 0;
  Tick free_at = 0;
  OpId waits_on = kNoOp;
  int parked_head = -1;
  int next_parked = -1;
};

// Where a device's run stopped early: the op it waits on, on which device.
struct Block {
  OpId op = kNoOp;  // kNoOp: the device placed its whole queue
  int device = -1;
};

// The hot loop: places `lane`'s ops from its cursor until one waits on an op
// not placed yet, writing each op's end. Pairs and full backwards go to
// `compound` (their start is not their end minus their row's duration).
// kPerOp: every slot lasts its entry in Problem::op_durations (`per_op`)
// instead of its row's cost; a separate instantiation, so the usual path
// reads no table and takes no extra branch.
template <bool kPerOp>
inline Block RunLane(Lane& lane, const RowDecoder rows, Tick* const end, const Problem& problem, const OpSpace& space,
                     std::vector<Slot>& compound, const Tick* const per_op) {
  const Slot* const queue = lane.queue;
  const size_t size = lane.size;
  size_t i = lane.cursor;
  Tick now = lane.free_at;
  Block block;
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
    const Row& r = rows.Decode(slot.op, dep);
    Tick ready = now;
    if (r.has_dep) {
      const Tick e = end[dep];
      if (e < 0) { block = {dep, r.dep_device}; break; }
      ready = std::max(ready, e + r.latency);
    }
    Tick duration = r.duration;
    if constexpr (kPerOp) duration = per_op[slot.op];
    if (slot.pair()) [[unlikely]] {
      OpId dep2;
      const Row& r2 = rows.Decode(slot.overlapped, dep2);
      if (r2.has_dep) {
        const Tick e = end[dep2];
        if (e < 0) { block = {dep2, r2.dep_device}; break; }
        ready = std::max(ready, e + r2.latency);
      }
      if constexpr (!kPerOp) duration = SlotDuration(problem, space, slot);
      end[slot.overlapped] = ready + duration;
      compound.push_back(slot);
    } else if (slot.full) [[unlikely]] {
      if constexpr (!kPerOp) duration = SlotDuration(problem, space, slot);
      compound.push_back(slot);
    }
    now = end[slot.op] = ready + duration;
  }
  lane.cursor = i;
  lane.free_at = now;
  return block;
}

// Runs devices until every one is finished or parked; a device is runnable,
// parked or finished, so P slots hold every runnable one. Returns the number
// of devices that placed their whole queue (P unless deadlocked).
template <bool kPerOp>
int PlaceEnds(const Problem& problem, const OpSpace& space, const RowDecoder rows, std::vector<Lane>& lanes,
              Tick* const end, std::vector<Slot>& compound) {
  const Tick* const per_op = kPerOp ? problem.op_durations.data() : nullptr;
  const int P = problem.P;
  std::vector<int> runnable(P);
  int top = 0;
  for (int d = P - 1; d >= 0; --d) runnable[top++] = d;
  int finished = 0;
  while (top > 0) {
    const int d = runnable[--top];
    const Block block = RunLane<kPerOp>(lanes[d], rows, end, problem, space, compound, per_op);
    if (block.op == kNoOp) {
      ++finished;
    } else {  // park d on the device that will place the op it waits on
      lanes[d].waits_on = block.op;
      lanes[d].next_parked = lanes[block.device].parked_head;
      lanes[block.device].parked_head = d;
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
  return finished;
}

std::string DeadlockMessage(const Problem& problem, const OpSpace& space, const std::vector<Lane>& lanes) {
  // Follow device -> device holding the op it waits on, until one repeats.
  int d = -1;
  for (int i = 0; i < problem.P; ++i)
    if (lanes[i].waits_on != kNoOp) { d = i; break; }
  std::vector<int> seen_at(problem.P, -1);
  std::vector<int> path;
  while (d >= 0 && seen_at[d] < 0) {
    seen_at[d] = static_cast<int>(path.size());
    path.push_back(d);
    d = problem.DeviceOf(space.At(lanes[d].waits_on).stage);
    if (lanes[d].waits_on == kNoOp) break;  // cannot happen for a complete schedule
  }
  std::string msg = "deadlock:";
  const int first = d >= 0 && seen_at[d] >= 0 ? seen_at[d] : 0;
  for (size_t i = first; i < path.size(); ++i) {
    const Lane& lane = lanes[path[i]];
    msg += (i == static_cast<size_t>(first) ? " " : "; ");
    msg += "device " + std::to_string(path[i]) + " waits on " + OpName(space.At(lane.waits_on)) + " before " +
           OpName(space.At(lane.queue[lane.cursor].op));
  }
  return msg;
}

// Starts from ends, in one sequential pass (the hot loop writes only ends),
// then the compound slots, whose duration is not their row's. With
// Problem::op_durations every start is its end minus its own entry.
void FillStarts(const Problem& problem, const OpSpace& space, const std::vector<Row>& rows,
                const std::vector<Slot>& compound, Timeline& t) {
  const OpId S = space.stages();
  const OpId two_m = 2 * space.microbatches();
  t.stored_start.resize(t.end.size());
  const Tick* const end = t.end.data();
  Tick* const start = t.stored_start.data();
  if (!problem.op_durations.empty()) {
    const Tick* const per_op = problem.op_durations.data();
    for (size_t id = 0; id < t.end.size(); ++id) start[id] = end[id] < 0 ? -1 : end[id] - per_op[id];
    for (const Slot& slot : compound)
      if (slot.pair()) start[slot.overlapped] = start[slot.op];
    return;
  }
  for (OpId q = 0; q < static_cast<OpId>(t.end.size() / S); ++q) {
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
}

}  // namespace

Result<Timeline> Place(const Problem& problem, Schedule schedule) {
  Timeline t;
  Error e = PlaceInto(problem, std::move(schedule), t);
  if (e.code != ErrorCode::kOk) return e;
  return t;
}

Error PlaceInto(const Problem& problem, Schedule&& schedule, Timeline& t) {
  // Sequence slices need more than one dependency per op: the graph path.
  // Sequence slices need more than one dependency per op, per-microbatch
  // costs more than one cost per (kind, stage): the graph path.
  if (problem.slices > 1 || PerMicrobatch(problem)) [[unlikely]]
    return PlaceSliced(problem, std::move(schedule), t);
  // Recompute: R is an op of its own with two dependencies (recompute.h).
  if (problem.recompute != RecomputeMode::kOff) [[unlikely]] {
    if (Error e = InsertRecompute(problem, schedule); !e.ok()) return e;
    return PlaceSliced(problem, std::move(schedule), t);
  }
  const OpSpace space = schedule.space;
  const int S = space.stages();
  const int kinds = schedule.split_backward ? 3 : 2;
  const std::vector<Row> rows = BuildRows(problem, space, kinds);
  const RowDecoder decoder{rows.data(), S, 2 * space.microbatches(), FastDiv(static_cast<std::uint32_t>(S))};

  const std::int64_t n = std::int64_t{kinds} * S * space.microbatches();
  t.problem = problem;
  t.end.assign(n, -1);  // -1: not placed yet
  std::vector<Lane> lanes(problem.P);
  for (int d = 0; d < problem.P; ++d) {
    lanes[d].queue = schedule.devices[d].data();
    lanes[d].size = schedule.devices[d].size();
  }
  std::vector<Slot> compound;  // pairs and full backwards
  const bool per_op = !problem.op_durations.empty();
  const int placed = per_op ? PlaceEnds<true>(problem, space, decoder, lanes, t.end.data(), compound)
                            : PlaceEnds<false>(problem, space, decoder, lanes, t.end.data(), compound);
  if (placed != problem.P) return Fail(ErrorCode::kDeadlock, DeadlockMessage(problem, space, lanes));
  // Starts are stored only when a slot is compound or ops have their own
  // durations (timeline.h).
  t.stored_start.clear();
  if (!compound.empty() || per_op) FillStarts(problem, space, rows, compound, t);

  Tick makespan = 0;
  for (const Lane& lane : lanes) makespan = std::max(makespan, lane.free_at);
  t.makespan = makespan;
  t.schedule = std::move(schedule);
  return Error::Ok();
}

}  // namespace ppsim

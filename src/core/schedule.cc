#include "ppsim/schedule.h"

#include <string>

#include "ppsim/op_table.h"
#include "ppsim/recompute.h"

namespace ppsim {

OpId Slot::backward(const OpSpace& space) const {
  if (op != kNoOp && space.At(op).kind == OpKind::kB) return op;
  if (overlapped != kNoOp && space.At(overlapped).kind == OpKind::kB) return overlapped;
  return kNoOp;
}

std::int64_t Schedule::op_count() const {
  std::int64_t n = 0;
  for (const auto& queue : devices)
    for (const Slot& slot : queue) n += slot.pair() ? 2 : 1;
  return n;
}

Error CheckComplete(const Problem& problem, const Schedule& schedule) {
  const OpSpace& space = schedule.space;
  if (space.stages() != problem.stages() || space.microbatches() != problem.M * problem.slices)
    return Fail(ErrorCode::kBadSchedule, "schedule is for " + std::to_string(space.stages()) + " stages × " +
                                             std::to_string(space.microbatches()) + " microbatches, problem has " +
                                             std::to_string(problem.stages()) + " × " + std::to_string(problem.M));
  if (space.split() != problem.Space().split())
    return Fail(ErrorCode::kBadSchedule, "schedule is for " + std::string(space.split() ? "two chains" : "one chain") +
                                             " of stages, the problem's " + PlacementName(problem.placement) +
                                             " placement has " + (problem.Space().split() ? "two" : "one"));
  if (static_cast<int>(schedule.devices.size()) != problem.P)
    return Fail(ErrorCode::kBadSchedule, "schedule has " + std::to_string(schedule.devices.size()) +
                                             " device queues, P = " + std::to_string(problem.P));
  OpTable<int> seen_on(space.size(), schedule.op_count(), -1);  // the device each op was listed on
  std::vector<OpId> full_w;  // W ids of full backwards: they must not appear
  auto visit = [&](OpId id, int d) -> Error {
    if (id < 0 || id >= space.size())
      return Fail(ErrorCode::kBadSchedule, "device " + std::to_string(d) + " lists an unknown op id " + std::to_string(id));
    Op op = space.At(id);
    if (!space.Exists(op.microbatch, op.stage))
      return Fail(ErrorCode::kBadSchedule, "device " + std::to_string(d) + " lists " + OpName(op) +
                                               ", but microbatch " + std::to_string(op.microbatch) +
                                               " does not pass stage " + std::to_string(op.stage));
    if (op.kind == OpKind::kW && !schedule.split_backward)
      return Fail(ErrorCode::kBadSchedule, OpName(op) + " on device " + std::to_string(d) +
                                               ": W ops need a split-backward schedule");
    if (seen_on.Get(id) >= 0)
      return Fail(ErrorCode::kBadSchedule, OpName(op) + " appears twice (device " + std::to_string(seen_on.Get(id)) +
                                               " and " + std::to_string(d) + ")");
    seen_on.Set(id, d);
    if (problem.DeviceOf(op.stage) != d)
      return Fail(ErrorCode::kBadSchedule, OpName(op) + " is listed on device " + std::to_string(d) + " but stage " +
                                               std::to_string(op.stage) + " is placed on device " +
                                               std::to_string(problem.DeviceOf(op.stage)));
    return Error::Ok();
  };
  for (int d = 0; d < problem.P; ++d) {
    for (const Slot& slot : schedule.devices[d]) {
      Error e = visit(slot.op, d);
      if (e.code != ErrorCode::kOk) return e;
      if (slot.pair()) {
        e = visit(slot.overlapped, d);
        if (e.code != ErrorCode::kOk) return e;
      }
      if (!slot.full) continue;
      const OpId b = slot.backward(space);
      if (b == kNoOp)
        return Fail(ErrorCode::kBadSchedule, "device " + std::to_string(d) + ": " + OpName(space.At(slot.op)) +
                                                 " is marked as a full backward but is not a B");
      if (!schedule.split_backward)
        return Fail(ErrorCode::kBadSchedule, OpName(space.At(b)) + " on device " + std::to_string(d) +
                                                 ": a full backward needs a split-backward schedule (every B of an "
                                                 "unsplit one is full already)");
      const Op op = space.At(b);
      full_w.push_back(space.Id(OpKind::kW, op.microbatch, op.stage));
    }
  }
  for (OpId w : full_w) {
    if (seen_on.Get(w) >= 0)
      return Fail(ErrorCode::kBadSchedule, OpName(space.At(w)) + " on device " + std::to_string(seen_on.Get(w)) +
                                               " belongs to a full backward, which has no W");
    seen_on.Set(w, problem.DeviceOf(space.At(w).stage));  // counts as present below
  }
  const int kinds = schedule.split_backward ? 3 : 2;
  // R ops: a schedule that lists none gets them at placement
  // (InsertRecompute); one that lists any must list them all.
  bool lists_r = false;
  for (const auto& queue : schedule.devices)
    for (const Slot& slot : queue) lists_r = lists_r || (space.recompute() && space.At(slot.op).kind == OpKind::kR);
  if (lists_r && !Recomputes(problem))
    return Fail(ErrorCode::kBadSchedule, "the schedule lists R ops but the problem recomputes nothing (set recompute)");
  for (int k = 0; k < kinds + (lists_r ? 1 : 0); ++k)
    for (int s = 0; s < space.stages(); ++s)
      for (int m = 0; m < space.microbatches(); ++m) {
        if (!space.Exists(m, s)) continue;
        if (k == kinds) {  // R: every stage with recompute, none elsewhere
          const OpId r = space.Id(OpKind::kR, m, s);
          const bool want = HasRecompute(problem, s);
          if (want && seen_on.Get(r) < 0)
            return Fail(ErrorCode::kBadSchedule, OpName(space.At(r)) + " is missing (expected on device " +
                                                     std::to_string(problem.DeviceOf(s)) + ")");
          if (!want && seen_on.Get(r) >= 0)
            return Fail(ErrorCode::kBadSchedule, OpName(space.At(r)) + " on device " + std::to_string(seen_on.Get(r)) +
                                                     ": stage " + std::to_string(s) + " recomputes nothing");
          continue;
        }
        OpId id = space.Id(static_cast<OpKind>(k), m, s);
        if (seen_on.Get(id) < 0)
          return Fail(ErrorCode::kBadSchedule, OpName(space.At(id)) + " is missing (expected on device " +
                                                   std::to_string(problem.DeviceOf(s)) + ")");
      }
  return Error::Ok();
}

}  // namespace ppsim

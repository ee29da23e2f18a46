#include "schedule_shape.h"

#include <algorithm>
#include <string>

#include "ppsim/op_table.h"

namespace ppsim::io {
namespace {

std::string Pos(int line, int col) { return std::to_string(line) + ":" + std::to_string(col); }

Error Bad(std::string message) { return Fail(ErrorCode::kBadSchedule, std::move(message)); }

// The placement that puts stage s on stage_device[s] for every s: loop or
// V-shape when one of them does, else the map itself, as PyTorch's
// _PipelineScheduleRuntime infers stage_index_to_group_rank from a CSV.
Placement InferPlacement(const std::vector<int>& stage_device, int P) {
  const int S = static_cast<int>(stage_device.size());
  Problem p;
  p.P = P;
  p.v = S / P;
  for (Placement placement : {Placement::kLoop, Placement::kVShape}) {
    if (placement == Placement::kVShape && p.v != 2) continue;
    p.placement = placement;
    bool all = true;
    for (int s = 0; s < S && all; ++s) all = p.DeviceOf(s) == stage_device[s];
    if (all) return placement;
  }
  return Placement::kMap;
}

}  // namespace

std::string Where(const std::string& source, int line, int col) { return source + ":" + Pos(line, col) + ": "; }

Result<ImportedSchedule> BuildImportedSchedule(const std::string& source,
                                               const std::vector<std::vector<SourceSlot>>& rows,
                                               bool split_backward) {
  const int P = static_cast<int>(rows.size());
  if (P == 0) return Bad(source + ": no ops (one line per device expected)");
  if (P > kMaxDevices)
    return Fail(ErrorCode::kTooLarge, source + ": " + std::to_string(P) + " devices exceed the limit " +
                                          std::to_string(kMaxDevices));

  // Stages and microbatches, and which device lists each stage.
  int S = 0, M = 0;
  auto each_op = [&](auto&& fn) -> Error {
    for (int d = 0; d < P; ++d)
      for (const SourceSlot& slot : rows[d]) {
        Error e = fn(d, slot.first);
        if (e.code != ErrorCode::kOk) return e;
        if (slot.second) {
          e = fn(d, *slot.second);
          if (e.code != ErrorCode::kOk) return e;
        }
      }
    return Error::Ok();
  };
  each_op([&](int, const SourceOp& o) {
    S = std::max(S, o.op.stage + 1);
    M = std::max(M, o.op.microbatch + 1);
    return Error::Ok();
  });
  if (S == 0) return Bad(source + ": no ops (one line per device expected)");
  std::vector<int> stage_device(S, -1);
  std::vector<SourceOp> stage_first(S);
  Error e = each_op([&](int d, const SourceOp& o) {
    const int s = o.op.stage;
    if (stage_device[s] < 0) {
      stage_device[s] = d;
      stage_first[s] = o;
    } else if (stage_device[s] != d) {
      return Bad(Where(source, o.line, o.col) + OpName(o.op) + " puts stage " + std::to_string(s) + " on device " +
                 std::to_string(d) + ", but " + OpName(stage_first[s].op) + " at " +
                 Pos(stage_first[s].line, stage_first[s].col) + " put it on device " +
                 std::to_string(stage_device[s]));
    }
    return Error::Ok();
  });
  if (e.code != ErrorCode::kOk) return e;
  for (int s = 0; s < S; ++s)
    if (stage_device[s] < 0)
      return Bad(source + ": stage " + std::to_string(s) + " has no ops, but stage " + std::to_string(S - 1) +
                 " does (stages must be 0.." + std::to_string(S - 1) + ")");
  std::vector<int> held(P, 0);
  for (int s = 0; s < S; ++s) ++held[stage_device[s]];
  for (int d = 0; d < P; ++d)
    if (held[d] != held[0])
      return Bad(source + ": device " + std::to_string(d) + " holds " + std::to_string(held[d]) +
                 " stage(s) but device 0 holds " + std::to_string(held[0]) +
                 "; every device must hold the same number of stages");

  ImportedSchedule out;
  Problem& p = out.problem;
  p.P = P;
  p.M = M;
  p.v = S / P;
  p.placement = InferPlacement(stage_device, P);
  if (p.placement == Placement::kMap) p.stage_device = stage_device;
  // A V whose microbatches each use only one arm is DualPipe's two chains:
  // the first M/2 down stages [0, P), the rest down stages [P, 2P).
  if (p.placement == Placement::kVShape && M % 2 == 0) {
    const OpSpace two(S, M, P);
    bool fits = true;
    each_op([&](int, const SourceOp& o) {
      fits = fits && two.Exists(o.op.microbatch, o.op.stage);
      return Error::Ok();
    });
    if (fits) p.placement = Placement::kDualPipe;
  }
  // R ops (recompute.h): the file recomputes, on the stages that list any;
  // which stages recompute for real is the run's (SimulateImported checks).
  std::vector<Tick> r_listed(S, 0);
  each_op([&](int, const SourceOp& o) {
    if (o.op.kind == OpKind::kR) r_listed[o.op.stage] = 1;
    return Error::Ok();
  });
  if (std::find(r_listed.begin(), r_listed.end(), 1) != r_listed.end()) {
    p.recompute = RecomputeMode::kFull;
    p.costs.r = std::move(r_listed);
  }
  e = ValidateProblem(p);
  if (e.code != ErrorCode::kOk) return e.At(source);

  Schedule& sched = out.schedule;
  sched.name = source;
  sched.split_backward = split_backward;
  sched.space = p.Space();
  sched.devices.resize(P);
  // Duplicates, reported at the second occurrence with the first's position.
  std::int64_t listed = 0;
  for (const auto& row : rows) listed += 2 * static_cast<std::int64_t>(row.size());  // a slot holds ≤ 2 ops
  OpTable<std::int64_t> first_at(sched.space.size(), listed, -1);  // line << 32 | col
  e = each_op([&](int, const SourceOp& o) {
    const OpId id = sched.space.Id(o.op);
    if (const std::int64_t at = first_at.Get(id); at >= 0)
      return Bad(Where(source, o.line, o.col) + OpName(o.op) + " appears twice (first at " +
                 Pos(static_cast<int>(at >> 32), static_cast<int>(at & 0xffffffff)) + ")");
    first_at.Set(id, (std::int64_t{o.line} << 32) | o.col);
    return Error::Ok();
  });
  if (e.code != ErrorCode::kOk) return e;
  for (int d = 0; d < P; ++d) {
    sched.devices[d].reserve(rows[d].size());
    for (const SourceSlot& slot : rows[d])
      sched.devices[d].push_back(
          Slot{sched.space.Id(slot.first.op), slot.second ? sched.space.Id(slot.second->op) : kNoOp, slot.full});
  }
  e = CheckComplete(p, sched);
  if (e.code != ErrorCode::kOk) return e.At(source);
  return out;
}

}  // namespace ppsim::io

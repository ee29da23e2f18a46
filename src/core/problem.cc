#include "ppsim/problem.h"

#include <algorithm>
#include <optional>
#include <string>

#include "ppsim/checked.h"
#include "ppsim/microbatch_lengths.h"
#include "ppsim/recompute.h"
#include "ppsim/slices.h"

namespace ppsim {
namespace {

// An empty list (b or w not given, read before ScaleCosts) is 1 tick.
Tick PerStage(const std::vector<Tick>& values, int stage) {
  if (values.empty()) [[unlikely]] return 1;
  return values.size() == 1 ? values[0] : values[stage];
}

// `model_stages` > 0: a list of that many values (one per stage of the model
// on one device) is also accepted — CostBasis::kStage before ScaleCosts().
// A per-stage value of a stage in `empty` (sorted) may be 0.
Error CheckCosts(const char* field, const std::vector<Tick>& values, int stages, int model_stages,
                 const std::vector<int>& empty) {
  if (values.empty()) return Fail(ErrorCode::kInvalidValue, std::string("cost ") + field + ": no value given");
  const int n = static_cast<int>(values.size());
  if (n != 1 && n != stages && n != model_stages) {
    const std::string give = model_stages > 0 && model_stages != stages
                                 ? "give 1, " + std::to_string(model_stages) + " per model stage or " +
                                       std::to_string(stages) + " per virtual stage"
                                 : "give 1 or " + std::to_string(stages);
    return Fail(ErrorCode::kInvalidValue, std::string("cost ") + field + ": " + std::to_string(values.size()) +
                                              " per-stage values given but there are " + std::to_string(stages) +
                                              " stages (" + give + ")");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    std::string where = values.size() == 1 ? std::string(field) : std::string(field) + "[" + std::to_string(i) + "]";
    const bool may_be_zero = static_cast<int>(values.size()) == stages && values.size() > 1 &&
                             std::binary_search(empty.begin(), empty.end(), static_cast<int>(i));
    if (values[i] < 0 || (values[i] == 0 && !may_be_zero))
      return Fail(ErrorCode::kInvalidValue, "cost " + where + " must be ≥ 1 tick, got " + std::to_string(values[i]));
    if (values[i] > kMaxCost)
      return Fail(ErrorCode::kTooLarge, "cost " + where + " = " + std::to_string(values[i]) +
                                            " exceeds the limit " + std::to_string(kMaxCost));
  }
  return Error::Ok();
}

// An upper bound on P × makespan: every op of every microbatch run back to
// back, each followed by the largest latency. Any placement's makespan is at
// most this sum over one device's share, so metrics that multiply P by the
// makespan (idle = P·makespan − busy) stay inside int64 when it fits.
std::optional<Tick> WorkBound(const Problem& p) {
  const int S = p.stages();
  Tick per_microbatch = 0;  // all stages' F + B + W (+ an overlapped pair, + a full backward), plus three hops each
  Tick max_comm = p.comm;
  for (Tick c : p.comm_hops) max_comm = std::max(max_comm, c);
  // Before ScaleCosts a list may hold one value per stage of the model (P
  // values, cost_scale.h): every model stage then counts v times in the sum,
  // as s mod P visits it.
  auto at = [S](const std::vector<Tick>& values, int s) {
    return PerStage(values, values.size() <= 1 || static_cast<int>(values.size()) == S
                                ? s
                                : s % static_cast<int>(values.size()));
  };
  for (int s = 0; s < S; ++s) {
    Tick stage = at(p.costs.f, s) + at(p.costs.b, s) + at(p.costs.w, s) + 3 * max_comm;
    if (!p.costs.fb.empty()) stage += at(p.costs.fb, s);
    if (!p.costs.bw.empty()) stage += at(p.costs.bw, s);  // a full backward, in place of B + W
    if (p.recompute != RecomputeMode::kOff) stage += p.costs.r.empty() ? at(p.costs.f, s) : at(p.costs.r, s);
    per_microbatch += stage;  // ≤ 2^12·2^6 stages × 2^43: no overflow
  }
  // Sliced: a microbatch's cost, once scaled, is its cost per weight unit
  // times the weights' sum (≥ K, which also counts K hops per stage).
  Tick slice_factor = p.slices > 1 ? SliceWeightTotal(p) : 1;
  for (Tick w : MicrobatchWeights(p))
    slice_factor = std::max(slice_factor, w * (p.slices > 1 ? SliceWeightTotal(p) : 1));
  std::optional<Tick> work = CheckedMul<Tick>(per_microbatch, p.M);
  if (work) work = CheckedMul<Tick>(*work, slice_factor);
  if (!work) return std::nullopt;
  if (!p.op_durations.empty()) {  // measured durations: their sum, plus three hops per op
    __int128 sum = static_cast<__int128>(3) * max_comm * S * p.M;
    for (Tick d : p.op_durations) sum += d;  // each ≤ 2^40, at most kMaxOps of them: no overflow
    if (sum > kMaxWork) return std::nullopt;
    work = std::max(*work, static_cast<Tick>(sum));
  }
  return CheckedMul<Tick>(*work, p.P);
}

}  // namespace

Tick Costs::Of(OpKind kind, int stage) const {
  switch (kind) {
    case OpKind::kF: return PerStage(f, stage);
    case OpKind::kB: return PerStage(b, stage);
    case OpKind::kW: return PerStage(w, stage);
    case OpKind::kR: return r.empty() ? PerStage(f, stage) : PerStage(r, stage);
  }
  return 0;
}

Tick Costs::FullBackward(int stage) const {
  if (bw.empty()) return PerStage(b, stage) + PerStage(w, stage);
  return PerStage(bw, stage);
}

Tick Costs::Overlapped(int f_stage, int b_stage, bool full_backward) const {
  if (fb.empty()) return PerStage(f, f_stage) + (full_backward ? FullBackward(b_stage) : PerStage(b, b_stage));
  return PerStage(fb, f_stage);
}

Error ValidateProblem(const Problem& p) {
  auto bad = [](const std::string& m) { return Fail(ErrorCode::kInvalidValue, m); };
  if (p.P < 1) return bad("P must be ≥ 1, got " + std::to_string(p.P));
  if (p.M < 1) return bad("M must be ≥ 1, got " + std::to_string(p.M));
  if (p.v < 1) return bad("chunks (v) must be ≥ 1, got " + std::to_string(p.v));
  if (p.group < 0) return bad("group must be ≥ 1, got " + std::to_string(p.group));
  if (p.P > kMaxDevices)
    return Fail(ErrorCode::kTooLarge, "P = " + std::to_string(p.P) + " exceeds the limit " + std::to_string(kMaxDevices));
  if (p.M > kMaxMicrobatches)
    return Fail(ErrorCode::kTooLarge,
                "M = " + std::to_string(p.M) + " exceeds the limit " + std::to_string(kMaxMicrobatches));
  if (p.v > kMaxChunks)
    return Fail(ErrorCode::kTooLarge, "chunks = " + std::to_string(p.v) + " exceeds the limit " + std::to_string(kMaxChunks));
  if (p.slices != 1 || PerMicrobatch(p)) {
    Error e = CheckSlices(p);
    if (e.code != ErrorCode::kOk) return e;
  }
  const std::int64_t ids = std::int64_t{3} * p.P * p.v * p.M * p.slices;
  if (ids > kMaxOps)
    return Fail(ErrorCode::kTooLarge, std::string(p.slices > 1 ? "P·v·M·slices = " : "P·v·M = ") +
                                          std::to_string(ids / 3) + " stage-microbatches exceeds the limit " +
                                          std::to_string(kMaxOps / 3) + " (refused before allocating)");
  if (p.placement == Placement::kMap) {
    if (static_cast<int>(p.stage_device.size()) != p.stages())
      return bad("placement map: " + std::to_string(p.stage_device.size()) + " devices given for " +
                 std::to_string(p.stages()) + " stages (one per stage, P·v)");
    std::vector<int> held(p.P, 0);
    for (size_t s = 0; s < p.stage_device.size(); ++s) {
      const int d = p.stage_device[s];
      if (d < 0 || d >= p.P)
        return bad("placement map: stage " + std::to_string(s) + " on device " + std::to_string(d) +
                   ", but devices are 0.." + std::to_string(p.P - 1));
      ++held[d];
    }
    for (int d = 0; d < p.P; ++d)
      if (held[d] != p.v)
        return bad("placement map: device " + std::to_string(d) + " holds " + std::to_string(held[d]) +
                   " stage(s), but every device holds v = " + std::to_string(p.v));
  }
  if (p.placement != Placement::kLoop && p.placement != Placement::kMap && p.v != 2)
    return bad(PlacementName(p.placement) + " placement needs exactly 2 chunks per device, got " + std::to_string(p.v));
  const int S = p.stages();
  for (size_t i = 0; i < p.empty_stages.size(); ++i)
    if (p.empty_stages[i] < 0 || p.empty_stages[i] >= S || (i > 0 && p.empty_stages[i] <= p.empty_stages[i - 1]))
      return bad("empty stages: " + std::to_string(p.empty_stages[i]) + " is not a stage in 0.." +
                 std::to_string(S - 1) + " listed in increasing order");
  const int model_stages = p.cost_basis == CostBasis::kStage && p.ticks_per_unit == 0 ? p.P : 0;
  {
    Error e = CheckCosts("F", p.costs.f, S, model_stages, p.empty_stages);
    if (e.code != ErrorCode::kOk) return e;
  }
  for (auto [name, values] : {std::pair<const char*, const std::vector<Tick>*>{"B", &p.costs.b},
                              {"W", &p.costs.w}, {"FB", &p.costs.fb}, {"BW", &p.costs.bw}}) {
    if (values->empty()) continue;
    Error e = CheckCosts(name, *values, S, model_stages, p.empty_stages);
    if (e.code != ErrorCode::kOk) return e;
  }
  if (p.ticks_per_unit == 0 && p.costs.bw.empty() && p.costs.b.empty() != p.costs.w.empty()) {
    const char* given = p.costs.b.empty() ? "W" : "B";
    const char* other = p.costs.b.empty() ? "B" : "W";
    return Error::Field(ErrorCode::kInvalidValue, "costs",
                        std::string(": ") + given + " is given without " + other +
                            ": a backward is B (input gradient) + W (weight gradient); give " + other +
                            " too, or BW alone for a whole backward");
  }
  {
    Error e = ValidateMemoryModel(p.memory, S);
    if (e.code != ErrorCode::kOk) return e;
  }
  if (p.comm < 0) return bad("comm must be ≥ 0, got " + std::to_string(p.comm));
  if (p.comm > kMaxCost)
    return Fail(ErrorCode::kTooLarge, "comm = " + std::to_string(p.comm) + " exceeds the limit " + std::to_string(kMaxCost));
  if (!p.comm_hops.empty()) {
    if (static_cast<int>(p.comm_hops.size()) != S - 1)
      return bad("comm per hop: " + std::to_string(p.comm_hops.size()) + " values given, need " + std::to_string(S - 1));
    for (size_t i = 0; i < p.comm_hops.size(); ++i)
      if (p.comm_hops[i] < 0 || p.comm_hops[i] > kMaxCost)
        return bad("comm hop " + std::to_string(i) + " must be in [0, " + std::to_string(kMaxCost) + "], got " +
                   std::to_string(p.comm_hops[i]));
  }
  if (p.comms.enabled()) {
    if (Error e = ValidateCommModel(p.comms, S); !e.ok()) return e;
    if (p.slices != 1 || PerMicrobatch(p))
      return Error::Field(ErrorCode::kPrecondition, "comms",
                          ": communication as ops does not model sequence slices or per-microbatch costs yet "
                          "(docs/comms.md); drop one");
  }
  if (p.recompute != RecomputeMode::kOff || !p.costs.r.empty() || !p.memory.input_bytes.empty())
    if (Error e = CheckRecompute(p); !e.ok()) return e;
  if (!p.op_durations.empty()) {
    if (static_cast<std::int64_t>(p.op_durations.size()) != p.Space().size())
      return bad("op durations: " + std::to_string(p.op_durations.size()) + " values given, need one per op id (" +
                 std::to_string(p.Space().size()) + ")");
    for (size_t i = 0; i < p.op_durations.size(); ++i)
      if (p.op_durations[i] < 0 || p.op_durations[i] > kMaxCost)
        return bad("op duration of " + OpName(p.Space().At(static_cast<OpId>(i))) + " must be in [0, " +
                   std::to_string(kMaxCost) + "], got " + std::to_string(p.op_durations[i]));
  }
  if (std::optional<Tick> work = WorkBound(p); !work || *work > kMaxWork)
    return Fail(ErrorCode::kTooLarge,
                "P × M × Σ over stages of (F+B+W+3·comm) = " + (work ? std::to_string(*work) : "more than 2^63") +
                    " device-ticks exceeds the limit 2^62 (P × makespan must fit in 64 bits; use coarser ticks)");
  return Error::Ok();
}

std::string PlacementName(Placement placement) {
  switch (placement) {
    case Placement::kLoop: return "loop";
    case Placement::kVShape: return "v-shape";
    case Placement::kDualPipe: return "dualpipe";
    case Placement::kMap: return "map";
  }
  return "loop";
}

std::string HoldModeName(HoldMode hold) { return hold == HoldMode::kHeld ? "held" : "resident"; }

std::string CostBasisName(CostBasis basis) { return basis == CostBasis::kStage ? "stage" : "chunk"; }

std::string RecomputeName(RecomputeMode mode) {
  switch (mode) {
    case RecomputeMode::kOff: return "off";
    case RecomputeMode::kFull: return "full";
    case RecomputeMode::kSelective: return "selective";
  }
  return "off";
}

std::string RecomputeAtName(RecomputeAt at) { return at == RecomputeAt::kEarly ? "early" : "before_b"; }

}  // namespace ppsim

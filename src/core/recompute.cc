// Recompute as an op: checks, input bytes and R's place in the queues.
#include "ppsim/recompute.h"

#include <string>
#include <vector>

#include "ppsim/microbatch_lengths.h"

namespace ppsim {

bool HasRecompute(const Problem& p, int stage) {
  return Recomputes(p) && p.costs.Of(OpKind::kR, stage) > 0;
}

std::int64_t RecomputeInputBytes(const Problem& p, int stage) {
  if (!p.memory.input_bytes.empty()) return p.memory.InputBytes(stage);
  // ≤ 2^36 bytes × a numerator ≤ its denominator: __int128 keeps it exact.
  const __int128 held = static_cast<__int128>(p.memory.ActivationBytes(stage)) * p.recompute_inputs_num;
  return static_cast<std::int64_t>(held / p.recompute_inputs_den);
}

Error CheckRecompute(const Problem& p) {
  if (p.recompute_inputs_den < 1 || p.recompute_inputs_num < 0 || p.recompute_inputs_num > p.recompute_inputs_den)
    return Error::Field(ErrorCode::kInvalidValue, "recompute_inputs",
                        ": the share of a stage's bytes held between F and R must be in [0, 1], got " +
                            std::to_string(p.recompute_inputs_num) + "/" + std::to_string(p.recompute_inputs_den));
  for (size_t i = 0; i < p.costs.r.size(); ++i)
    if (p.costs.r[i] < 0 || p.costs.r[i] > kMaxCost)
      return Error::Field(ErrorCode::kInvalidValue, "recompute",
                          ": R cost of stage " + std::to_string(i) + " must be in [0, " + std::to_string(kMaxCost) +
                              "], got " + std::to_string(p.costs.r[i]));
  if (!Recomputes(p)) return Error::Ok();
  if (p.recompute == RecomputeMode::kSelective && p.costs.r.empty())
    return Error::Field(ErrorCode::kInvalidValue, "recompute",
                        ": selective needs a model file whose recompute list names the layers (docs/costs.md); "
                        "use full to recompute whole stages");
  if (p.slices != 1 || PerMicrobatch(p))
    return Error::Field(ErrorCode::kPrecondition, "recompute",
                        ": recompute does not combine with sequence slices or per-microbatch costs yet; drop one");
  if (p.comms.enabled())
    return Error::Field(ErrorCode::kPrecondition, "recompute",
                        ": communication as ops does not model recompute yet (docs/comms.md); drop one");
  if (!p.op_durations.empty())
    return Error::Field(ErrorCode::kPrecondition, "recompute", ": measured op durations carry no R ops");
  if (!p.memory.activation_bytes.empty()) {
    const int S = p.stages();
    const size_t n = p.memory.activation_bytes.size();
    for (int s = 0; s < S; ++s) {
      if (!HasRecompute(p, s) || p.memory.ActivationBytes(s) > 0) continue;
      const std::string which = n == 1 ? "memory.activation_bytes" : "memory.activation_bytes[" + std::to_string(s) + "]";
      return Error::Field(ErrorCode::kInvalidValue, "recompute",
                          ": stage " + std::to_string(s) + " holds no activations (" + which +
                              " = 0): nothing to recompute");
    }
  }
  return Error::Ok();
}

Error InsertRecompute(const Problem& p, Schedule& schedule) {
  const OpSpace old = schedule.space;
  const OpSpace space(old.stages(), old.microbatches(), old.split(), true);
  bool listed = false;  // the schedule lists R ops already
  for (const std::vector<Slot>& queue : schedule.devices)
    for (const Slot& slot : queue) {
      if (slot.pair())
        return Fail(ErrorCode::kBadSchedule, "overlapped pair " + OpName(old.At(slot.op)) + " with " +
                                                 OpName(old.At(slot.overlapped)) +
                                                 ": recompute runs no overlapped pairs (run --no-overlap)");
      listed = listed || (old.recompute() && old.At(slot.op).kind == OpKind::kR);
    }
  schedule.space = space;
  if (listed) return Error::Ok();
  for (std::vector<Slot>& queue : schedule.devices) {
    std::vector<Slot> out;
    out.reserve(queue.size() + queue.size() / 2);
    for (const Slot& slot : queue) {
      const Op op = old.At(slot.op);  // ids of F, B and W are the same in both spaces
      if (op.kind == OpKind::kB && HasRecompute(p, op.stage)) {
        Slot r;
        r.op = space.Id(OpKind::kR, op.microbatch, op.stage);
        out.push_back(r);
      }
      out.push_back(slot);
    }
    queue = std::move(out);
  }
  return Error::Ok();
}

void FoldRecomputeIntoB(Problem& p) {
  if (!Recomputes(p)) return;
  const int S = p.stages();
  if (!p.costs.b.empty() && !p.costs.r.empty()) {
    std::vector<Tick> b(S);
    for (int s = 0; s < S; ++s) b[s] = p.costs.Of(OpKind::kB, s) + p.costs.Of(OpKind::kR, s);
    p.costs.b = std::move(b);
  }
  if (!p.memory.input_bytes.empty() && !p.memory.activation_bytes.empty()) p.memory.activation_bytes = p.memory.input_bytes;
  p.memory.input_bytes.clear();
  p.costs.r.clear();
  p.recompute = RecomputeMode::kOff;
}

}  // namespace ppsim

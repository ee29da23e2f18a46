#include "interleaved_order.h"
#include "pytorch_rounds.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// Megatron's group with --group g, else PyTorch's round (pytorch_rounds.h).
int Group(const Problem& p) { return p.group != 0 ? p.group : PytorchRoundSize(p); }

// Megatron-LM's interleaved 1F1B (interleaved_order.h). With --group g it is
// Megatron's order for microbatch_group_size_per_vp_stage = g, under
// Megatron's own checks. Without it, microbatches go in PyTorch's rounds
// (ScheduleInterleaved1F1B): groups of M / max(1, M/P) — P when P divides M,
// where PyTorch and Megatron (g = P) agree.
Result<Schedule> GenerateInterleaved(const Problem& p) { return InterleavedOrder(p, Group(p), 0, false); }

Error CheckInterleaved(const Problem& p) {
  if (p.group != 0) return CheckMegatronGroup(p, "interleaved");
  return CheckPytorchRounds(p, "interleaved");
}

// Narayanan et al.: with chunks costing 1/v of a stage, the bubble shrinks by
// v, given groups (or rounds) of at least P microbatches.
Prediction PredictInterleaved(const Problem& p) {
  Prediction out;
  if (Group(p) < p.P) return out;
  const Tick fb = p.costs.f[0] + p.costs.b[0];
  out.Add("makespan", "(vM+P-1)(F+B+W) per chunk", Rational((std::int64_t{p.v} * p.M + p.P - 1) * fb));
  out.Add("bubble_ratio", "(P-1)/(vM)", Rational::Of(p.P - 1, std::int64_t{p.v} * p.M));
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kInterleaved = {
    .name = "interleaved",
    .description = "Interleaved 1F1B (Megatron-LM, PyTorch ScheduleInterleaved1F1B): v chunks per device, bubble / v; "
                   "group g = Megatron's microbatch_group_size_per_vp_stage",
    .preconditions = "chunks v ≥ 1; M divisible by max(1, M/P) (PyTorch's rounds); with group g: P ≤ g ≤ M and "
                     "M mod g = 0 or ≥ P (Megatron)",
    .placement = Placement::kLoop,
    .generate = &GenerateInterleaved,
    .check = &CheckInterleaved,
    .predict = &PredictInterleaved,
    .takes_group = true,
};

}  // namespace ppsim

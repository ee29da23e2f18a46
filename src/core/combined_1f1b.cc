#include <algorithm>
#include <string>
#include <vector>

#include "interleaved_order.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// Megatron-LM's combined 1F1B (overlap_moe_expert_parallel_comm: schedules.py's
// interleaved schedule calling combined_1f1b.py for every step). The order is
// Megatron's interleaved one (interleaved_order.h, groups of g) with one more
// warm-up forward per device, capped at v·M, "so that the forward and the
// backward computations are independent in all 1f1b steps". Each steady step
// is then one overlapped call, an (F;B) pair: its backward is Megatron's full
// backward_step, so the pair costs F + B (or FB when given) and sends its
// input gradient upstream only when it ends. Warm-up forwards and cool-down
// backwards run alone. With P = 1 this is combined_1f1b_schedule_for_no_
// pipelining: F0, (F1;B0), ..., (F[M-1];B[M-2]), B[M-1].
Result<Schedule> GenerateCombined1F1B(const Problem& p) {
  return InterleavedOrder(p, MegatronGroup(p), 1, true);
}

Error CheckCombined1F1B(const Problem& p) {
  if (p.P == 1) {  // Megatron runs forward_backward_no_pipelining: no chunks, no groups
    if (p.v != 1)
      return Error::Field(ErrorCode::kPrecondition, "chunks",
                          ": combined-1f1b with P = 1 runs Megatron's schedule without pipelining, which does not "
                          "support model chunking; got " + std::to_string(p.v) + " (use 1)");
    return Error::Ok();
  }
  if (p.v < 2)
    return Error::Field(ErrorCode::kPrecondition, "chunks",
                        " must be ≥ 2 for combined-1f1b when P > 1 (Megatron: if enabling EP A2A overlap, "
                        "virtual_pipeline_model_parallel_size must be specified when pipeline_model_parallel_size > "
                        "1); got " + std::to_string(p.v));
  return CheckMegatronGroup(p, "combined-1f1b");
}

// The order is interleaved's with its steady F and B as one pair costing
// F+B, so the makespan and bubble are interleaved's (Narayanan et al.), and
// device d holds its W = (v-1)·g + 2(P-1-d) + 1 warm-up forwards plus the
// pair's: min(W+1, vM) chunk sets, allocator view (tests/core/
// combined_1f1b_test.cc checks both for every group Megatron accepts).
Prediction PredictCombined1F1B(const Problem& p) {
  Prediction out;
  if (!p.costs.fb.empty()) return out;
  const Tick fb = p.costs.f[0] + p.costs.b[0];
  const std::int64_t chunks = std::int64_t{p.v} * p.M;
  out.Add("makespan", "(vM+P-1)(F+B+W) per chunk", Rational((chunks + p.P - 1) * fb));
  out.Add("bubble_ratio", "(P-1)/(vM)", Rational::Of(p.P - 1, chunks));
  if (p.hold != HoldMode::kResident) return out;
  const int group = MegatronGroup(p);
  std::vector<std::int64_t> peaks(p.P);
  for (int d = 0; d < p.P; ++d)
    peaks[d] = std::min<std::int64_t>(std::int64_t{p.v - 1} * group + 2 * (p.P - 1 - d) + 2, chunks);
  out.peak_per_device = peaks;
  out.peak_formula = "min((v-1)g+2(P-1-d)+2, vM)";
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kCombined1F1B = {
    .name = "combined-1f1b",
    .description = "Megatron-LM's combined 1F1B (overlap_moe_expert_parallel_comm): interleaved with one more "
                   "warm-up forward, each steady step one overlapped (F;B) pair with a full backward",
    .preconditions = "chunks v ≥ 2 (v = 1 when P = 1); group g (default P): P ≤ g ≤ M, M mod g = 0 or ≥ P "
                     "(Megatron)",
    .placement = Placement::kLoop,
    .generate = &GenerateCombined1F1B,
    .check = &CheckCombined1F1B,
    .predict = &PredictCombined1F1B,
    .takes_group = true,
};

}  // namespace ppsim

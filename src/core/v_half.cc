#include "vshape_greedy.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// V-Half (Qi et al., "Pipeline Parallelism with Controllable Memory",
// NeurIPS 2024): a V-shape schedule whose steady state holds about half of
// 1F1B's activations. Its pattern spreads one microbatch's four passes on
// device d over slots 2d (F0), 3P-d-2 (F1), 3P+g+2d-1 (B1) and 6P+g-d-2
// (B0), with a gap g = 3 when P is even (0 otherwise) that keeps the slots
// of a device apart modulo 6; the Zero Bubble team's greedy squeeze turns it
// into the order (vshape_greedy.h).
Result<Schedule> GenerateVHalf(const Problem& p) {
  const int P = p.P;
  const int gap = P % 2 == 0 ? 3 : 0;
  VShapePattern pattern(P);
  for (int d = 0; d < P; ++d) pattern[d] = {2 * d, 3 * P - d - 2, 3 * P + gap + 2 * d - 1, 6 * P + gap - d - 2};
  return GreedyVShapeSchedule(p, pattern);
}

Error CheckVHalf(const Problem& p) { return CheckVShapeGreedySize(p, "v-half"); }

// Qi et al. give the activation memory in whole microbatches, counted from a
// forward's start to its W's end: ⌊(P+2)/2⌋ on the fullest device. ppsim
// counts chunk sets, two per microbatch (tests/core/vshape_orders_test.cc
// checks where this holds).
Prediction PredictVHalf(const Problem& p) {
  Prediction out;
  if (p.hold != HoldMode::kResident) return out;
  out.peak_max = 2 * ((p.P + 2) / 2);
  out.peak_max_formula = "2⌊(P+2)/2⌋";
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kVHalf = {
    .name = "v-half",
    .description = "V-Half (Qi et al. 2024, controllable memory): V-shape, B split from W, about half of 1F1B's "
                   "activations; the Zero Bubble team's greedy order",
    .preconditions = "exactly 2 chunks per device (V-shape); any M ≥ 1; P ≤ 256 and P·M ≤ 262144 (the greedy's limits)",
    .placement = Placement::kVShape,
    .fixed_chunks = 2,
    .split_backward = true,
    .generate = &GenerateVHalf,
    .check = &CheckVHalf,
    .predict = &PredictVHalf,
};

}  // namespace ppsim

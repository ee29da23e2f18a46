#include "vshape_greedy.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// V-Min (Qi et al., "Pipeline Parallelism with Controllable Memory",
// NeurIPS 2024): a V-shape schedule whose steady state holds about a third
// of 1F1B's activations. Its pattern puts one microbatch's four passes on
// device d in slots d (F0), 2P-d-1 (F1), 2P+g+d (B1) and 4P+g-d-1 (B0),
// with a gap g = 2 when 3 divides P (0 otherwise) that keeps the slots of a
// device apart modulo 6; the Zero Bubble team's greedy squeeze turns it
// into the order (vshape_greedy.h).
Result<Schedule> GenerateVMin(const Problem& p) {
  const int P = p.P;
  const int gap = P % 3 == 0 ? 2 : 0;
  VShapePattern pattern(P);
  for (int d = 0; d < P; ++d) pattern[d] = {d, 2 * P - d - 1, 2 * P + gap + d, 4 * P + gap - d - 1};
  return GreedyVShapeSchedule(p, pattern);
}

Error CheckVMin(const Problem& p) { return CheckVShapeGreedySize(p, "v-min"); }

// Qi et al. give the activation memory in whole microbatches, counted from a
// forward's start to its W's end: ⌊(P+4)/3⌋ on the fullest device. ppsim
// counts chunk sets, two per microbatch (tests/core/vshape_orders_test.cc
// checks where this holds).
Prediction PredictVMin(const Problem& p) {
  Prediction out;
  if (p.hold != HoldMode::kResident) return out;
  out.peak_max = 2 * ((p.P + 4) / 3);
  out.peak_max_formula = "2⌊(P+4)/3⌋";
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kVMin = {
    .name = "v-min",
    .description = "V-Min (Qi et al. 2024, controllable memory): V-shape, B split from W, about a third of 1F1B's "
                   "activations; the Zero Bubble team's greedy order",
    .preconditions = "exactly 2 chunks per device (V-shape); any M ≥ 1; P ≤ 256 and P·M ≤ 262144 (the greedy's limits)",
    .placement = Placement::kVShape,
    .fixed_chunks = 2,
    .split_backward = true,
    .generate = &GenerateVMin,
    .check = &CheckVMin,
    .predict = &PredictVMin,
};

}  // namespace ppsim

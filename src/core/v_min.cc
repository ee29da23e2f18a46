#include "core/vshape_greedy.h"
#include "ppsim/generators.h"

namespace ppsim {

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

}  // namespace ppsim

#include "core/dual_order.h"
#include "core/schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {

// DualPipeV (DeepSeek's DualPipe folded into a V, as PyTorch's
// ScheduleDualPipeV computes it): V-shape placement, device d holds stage d
// (phase 0) and stage 2P-1-d (phase 1); all M microbatches go down and back
// up. See dual_order.h for the per-rank steps.
Result<Schedule> GenerateDualPipeV(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(6 * p.M);
    const int stage[2] = {d, 2 * p.P - 1 - d};
    const int first[2] = {0, 0};
    AppendDualOrder(DualRankOrder(p.P, d, p.M), stage, first, p.overlap, q);
  }
  return s;
}

}  // namespace ppsim

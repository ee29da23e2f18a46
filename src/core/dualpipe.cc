#include <algorithm>

#include "core/dual_order.h"
#include "core/schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {

// DualPipe (DeepSeek-V3): two copies of the model run in opposite
// directions (Placement::kDualPipe). Microbatches [0, M/2) go down copy 0
// (stage s on device s), microbatches [M/2, M) go up copy 1 (stage P+i on
// device P-1-i), so each device holds two stages and twice the parameters.
// Rank r and its mirror P-1-r run the DualPipeV steps of V-rank
// min(r, P-1-r) of P/2, each with the direction that starts at its own end
// of the pipeline as phase 0.
Result<Schedule> GenerateDualPipe(const Problem& p) {
  Schedule s = EmptySchedule(p);
  const int P = p.P, half = p.M / 2;
  for (int d = 0; d < P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(6 * p.M);
    const int down = d, up = 2 * P - 1 - d;  // this device's stage of each copy
    const bool second_half = d >= P / 2;
    const int stage[2] = {second_half ? up : down, second_half ? down : up};
    const int first[2] = {second_half ? half : 0, second_half ? 0 : half};
    AppendDualOrder(DualRankOrder(P / 2, std::min(d, P - 1 - d), half), stage, first, p.overlap, q);
  }
  return s;
}

}  // namespace ppsim

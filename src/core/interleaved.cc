#include <algorithm>
#include <vector>

#include "core/schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {

// Megatron-LM's interleaved 1F1B, written as PyTorch's
// ScheduleInterleaved1F1B computes it per rank. Microbatches go in rounds of
// R = M / max(1, M/P) (= P when P divides M). Step i of the forward stream
// runs chunk (i / R) mod v; step j of the backward stream runs chunk
// v-1 - (j / R) mod v. Rank d first runs (v-1)·R + 2(P-1-d) forwards
// (capped at v·M), then alternates one forward and one backward, then drains.
Result<Schedule> GenerateInterleaved(const Problem& p) {
  Schedule s = EmptySchedule(p);
  const int v = p.v;
  const int rounds = std::max(1, p.M / p.P);
  const int per_round = p.M / rounds;
  const int total = v * p.M;
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * total);
    const int warmup = std::min((v - 1) * per_round + 2 * (p.P - 1 - d), total);
    std::vector<int> next_f(v, 0), next_b(v, 0);  // next microbatch per local chunk
    auto forward = [&](int step) {
      const int chunk = (step / per_round) % v;
      q.F(next_f[chunk]++, chunk * p.P + d);
    };
    auto backward = [&](int step) {
      const int chunk = v - 1 - ((step - warmup) / per_round) % v;
      q.B(next_b[chunk]++, chunk * p.P + d);
    };
    for (int op = 0; op < total + warmup; ++op) {
      // Ops [0, warmup) are forwards; [warmup, total) forward+backward; then backwards.
      if (op < warmup) {
        forward(op);
      } else if (op < total) {
        forward(op);
        backward(op);
      } else {
        backward(op);
      }
    }
  }
  return s;
}

}  // namespace ppsim

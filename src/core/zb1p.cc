#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include "pytorch_rounds.h"
#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// ZB1P as PyTorch's ScheduleInterleavedZeroBubble computes it per rank:
// interleaved 1F1B (microbatches in rounds of R = M / max(1, M/P); step i
// of the forward stream runs local chunk (i / R) mod v, step j of the
// backward stream chunk v-1 - ((j - warmup) / R) mod v) with a warm-up of
// (v-1)·R + (P-1-d) forwards (one per hop, not Megatron's two: B no longer
// waits for W) capped at v·M, B being the input-gradient pass. From the
// (d+1)-th backward on, every backward is followed by the W of the oldest
// backward still without one; the d W held back run at the end. With v = 1
// this is ZB-H1.
Result<Schedule> GenerateZB1P(const Problem& p) {
  Schedule s = EmptySchedule(p);
  const int v = p.v;
  const int rounds = std::max(1, p.M / p.P);
  const int per_round = p.M / rounds;
  const int total = v * p.M;
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(3 * total);
    const int warmup = std::min((v - 1) * per_round + (p.P - 1 - d), total);
    std::vector<int> next_f(v, 0), next_b(v, 0);      // next microbatch per local chunk
    std::deque<std::pair<int, int>> pending_w;        // (microbatch, stage) in B order
    auto forward = [&](int step) {
      const int chunk = (step / per_round) % v;
      q.F(next_f[chunk]++, chunk * p.P + d);
    };
    auto backward = [&](int step) {
      const int chunk = v - 1 - ((step - warmup) / per_round) % v;
      const int stage = chunk * p.P + d;
      q.B(next_b[chunk], stage);
      pending_w.emplace_back(next_b[chunk]++, stage);
      if (step - warmup >= d) {
        q.W(pending_w.front().first, pending_w.front().second);
        pending_w.pop_front();
      }
    };
    for (int step = 0; step < total + warmup; ++step) {
      if (step < total) forward(step);
      if (step >= warmup) backward(step);
    }
    for (const auto& [m, stage] : pending_w) q.W(m, stage);
  }
  return s;
}

Error CheckZB1P(const Problem& p) { return CheckPytorchRounds(p, "zb1p"); }

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kZB1P = {
    .name = "zb1p",
    .description = "ZB1P (PyTorch ScheduleInterleavedZeroBubble): interleaved 1F1B with B split from W; v = 1 is ZB-H1",
    .preconditions = "chunks v ≥ 1; M divisible by max(1, M/P)",
    .placement = Placement::kLoop,
    .split_backward = true,
    .generate = &GenerateZB1P,
    .check = &CheckZB1P,
};

}  // namespace ppsim

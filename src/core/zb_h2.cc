#include <vector>

#include "schedule_builder.h"
#include "uniform_cost.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// ZB-H2 (Qi et al., ICLR 2024): the handcrafted zero-bubble schedule that
// trades memory for time. It is the order a unit-cost pipeline (F = B = W =
// 1 tick, no latency) produces when, at every tick, each device runs
//   a B if one is ready, else
//   an F if one is ready and fewer than 2P-1 microbatches are in flight on
//     it (forwarded but not yet weight-graded), else
//   its oldest pending W.
// The extra warm-up forwards fill the bubble before the first B, and the W
// pushed to the tail turn 1F1B's trapezoid into a parallelogram: with
// M ≥ 2P-1 each device's span holds (P-1)(F+B-2W) idle ticks (0 at equal
// costs) and at most 2P-1 microbatches.
//
// The simulation steps one tick at a time, but a device's readiness only
// needs how many F and B its neighbours had finished by the previous tick
// (each device runs its F and its B in microbatch order), so it is
// O(P · ticks) with ticks ≤ 3M + 4P.
Result<Schedule> GenerateZBH2(const Problem& p) {
  Schedule s = EmptySchedule(p);
  const int P = p.P, M = p.M;
  const int cap = 2 * P - 1;
  std::vector<int> f(P, 0), b(P, 0), w(P, 0);
  std::vector<int> f_prev(P, 0), b_prev(P, 0);  // counts finished before this tick
  std::vector<QueueBuilder> q;
  q.reserve(P);
  for (int d = 0; d < P; ++d) {
    q.emplace_back(s, d);
    q.back().Reserve(3 * M);
  }
  int finished = 0;
  while (finished < P) {
    bool progress = false;
    for (int d = 0; d < P; ++d) {
      if (w[d] == M) continue;
      const bool b_ready = b[d] < f[d] && (d == P - 1 ? b[d] < f_prev[d] : b[d] < b_prev[d + 1]);
      const bool f_ready = f[d] < M && f[d] - w[d] < cap && (d == 0 || f[d] < f_prev[d - 1]);
      if (b_ready) {
        q[d].B(b[d]++, d);
      } else if (f_ready) {
        q[d].F(f[d]++, d);
      } else if (w[d] < b[d]) {
        q[d].W(w[d]++, d);
        if (w[d] == M) ++finished;
      } else {
        continue;
      }
      progress = true;
    }
    if (!progress && f_prev == f && b_prev == b)
      return Fail(ErrorCode::kInternal, "zb-h2: the unit-cost construction stalled");  // cannot happen
    f_prev = f;
    b_prev = b;
  }
  return s;
}

// The Zero Bubble paper's bubble (the largest idle time inside one device's
// span), where it holds: M ≥ 2P-1, W ≤ F and F+B ≥ 2W.
Prediction PredictZBH2(const Problem& p) {
  Prediction out;
  const Tick f = p.costs.f[0], b = p.costs.b[0];
  const auto w = Uniform(p.costs.w);
  if (!w || *w > f || p.M < 2 * p.P - 1 || f + b < 2 * *w) return out;
  out.Add("max_span_idle", "(P-1)(F+B-2W)", Rational(std::int64_t{p.P - 1} * (f + b - 2 * *w)));
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kZBH2 = {
    .name = "zb-h2",
    .description = "ZB-H2 (Zero Bubble, Qi et al. 2024): up to 2P-1 microbatches in flight, W deferred to the tail; "
                   "bubble (P-1)(F+B-2W)",
    .preconditions = "one chunk per device; any M ≥ 1 (zero bubble at equal costs needs M ≥ 2P-1)",
    .placement = Placement::kLoop,
    .fixed_chunks = 1,
    .split_backward = true,
    .generate = &GenerateZBH2,
    .predict = &PredictZBH2,
};

}  // namespace ppsim

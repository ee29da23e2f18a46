#include <algorithm>
#include <deque>

#include "schedule_builder.h"
#include "uniform_cost.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// ZB-H1 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024): 1F1B
// with the backward split into B (input gradient) and W (weight gradient).
// Device d runs 1F1B's warm-up of min(P-1-d, M) forwards and then its
// F, B steady state, but starts its W passes d steps late: each of the
// first d steady/cool-down steps runs no W, every later step runs the
// oldest pending W, and the d held-back W fill the tail. Every device then
// holds at most P microbatches (1F1B's peak on device 0) and the bubble per
// device span is (P-1)(F+B-W) instead of 1F1B's (P-1)(F+B+W).
Result<Schedule> GenerateZBH1(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(3 * p.M);
    const int warmup = std::min(p.P - 1 - d, p.M);
    int f = 0, b = 0, w = 0;
    while (f < warmup) q.F(f++, d);
    for (int step = 0; b < p.M; ++step) {
      if (f < p.M) q.F(f++, d);
      q.B(b++, d);
      if (step >= d) q.W(w++, d);
    }
    while (w < p.M) q.W(w++, d);
  }
  return s;
}

// The Zero Bubble paper's bubble (the largest idle time inside one device's
// span), where it holds: M ≥ 2P-1 and W ≤ F.
Prediction PredictZBH1(const Problem& p) {
  Prediction out;
  const Tick f = p.costs.f[0], b = p.costs.b[0];
  const auto w = Uniform(p.costs.w);
  if (!w || *w > f || p.M < 2 * p.P - 1) return out;
  out.Add("max_span_idle", "(P-1)(F+B-W)", Rational(std::int64_t{p.P - 1} * (f + b - *w)));
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kZBH1 = {
    .name = "zb-h1",
    .description = "ZB-H1 (Zero Bubble, Qi et al. 2024): 1F1B with B split from W, W delayed to fill the tail; bubble "
                   "(P-1)(F+B-W), 1F1B's memory",
    .preconditions = "one chunk per device; any M ≥ 1",
    .placement = Placement::kLoop,
    .fixed_chunks = 1,
    .split_backward = true,
    .generate = &GenerateZBH1,
    .predict = &PredictZBH1,
};

}  // namespace ppsim

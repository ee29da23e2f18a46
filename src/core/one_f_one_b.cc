#include <algorithm>
#include <vector>

#include "fill_drain.h"
#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// Device d runs min(P-1-d, M) warm-up forwards, then alternates one forward
// and one backward, then drains the remaining backwards.
Result<Schedule> Generate1F1B(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * p.M);
    const int warmup = std::min(p.P - 1 - d, p.M);
    int f = 0, b = 0;
    while (f < warmup) q.F(f++, d);
    while (f < p.M) {
      q.F(f++, d);
      q.B(b++, d);
    }
    while (b < p.M) q.B(b++, d);
  }
  return s;
}

// GPipe's makespan and bubble, with device d holding at most min(P-d, M)
// microbatches (none on the last device when held counts from a forward's
// end to its backward's start). The Zero Bubble paper's bubble, the largest
// idle time inside one device's span, is (P-1)(F+B) once M ≥ 2P-1.
Prediction Predict1F1B(const Problem& p) {
  Prediction out = FillDrainPrediction(p);
  const Tick fb = p.costs.f[0] + p.costs.b[0];
  const bool held = p.hold == HoldMode::kHeld;
  std::vector<std::int64_t> peaks(p.P);
  for (int d = 0; d < p.P; ++d) peaks[d] = held && d == p.P - 1 ? 0 : std::min(p.P - d, p.M);
  out.peak_per_device = peaks;
  out.peak_formula = held ? "min(P-d, M) (0 on the last device)" : "min(P-d, M)";
  if (p.M >= 2 * p.P - 1) {
    out.Add("max_span_idle", "(P-1)(F+B+W)", Rational(std::int64_t{p.P - 1} * fb));
  }
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo k1F1B = {
    .name = "1f1b",
    .description = "1F1B (PipeDream-Flush): warm-up of P-1-d forwards, then one forward, one backward",
    .preconditions = "one chunk per device; any M ≥ 1 (M < P shortens the warm-up)",
    .placement = Placement::kLoop,
    .fixed_chunks = 1,
    .generate = &Generate1F1B,
    .predict = &Predict1F1B,
};

}  // namespace ppsim

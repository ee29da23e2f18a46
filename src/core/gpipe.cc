#include <vector>

#include "fill_drain.h"
#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

Result<Schedule> GenerateGPipe(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * p.M);
    for (int m = 0; m < p.M; ++m) q.F(m, d);
    for (int m = 0; m < p.M; ++m) q.B(m, d);
  }
  return s;
}

// Every device is busy M(F+B) of (M+P-1)(F+B). Each holds all M
// microbatches before its first backward; held from a forward's end, the
// last device holds M-1 (it starts B0 as F(M-1) ends).
Prediction PredictGPipe(const Problem& p) {
  Prediction out = FillDrainPrediction(p);
  const bool held = p.hold == HoldMode::kHeld;
  std::vector<std::int64_t> peaks(p.P);
  for (int d = 0; d < p.P; ++d) peaks[d] = held && d == p.P - 1 ? p.M - 1 : p.M;
  out.peak_per_device = peaks;
  out.peak_formula = held ? "M (M-1 on the last device)" : "M";
  return out;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kGPipe = {
    .name = "gpipe",
    .description = "GPipe: every forward in microbatch order, then every backward",
    .preconditions = "one chunk per device",
    .placement = Placement::kLoop,
    .fixed_chunks = 1,
    .generate = &GenerateGPipe,
    .predict = &PredictGPipe,
};

}  // namespace ppsim

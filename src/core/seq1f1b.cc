#include <algorithm>

#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// The Zero Bubble repository's Seq1F1B (scheduler/seq1f1b.py): 1F1B over
// slice units. Device d runs min(P-d-2+K, M·K) warm-up forward slices in
// (microbatch, slice) order, then alternates one forward slice and one
// backward slice, then drains; backward slices run each microbatch's slices
// K-1 .. 0. Each B is a full backward (input and weight gradients). Unit u
// = m·K + k is slice k of microbatch m (slices.h).
Result<Schedule> GenerateSeq1F1B(const Problem& p) {
  Schedule s = EmptySchedule(p);
  const int K = p.slices;
  const int units = p.M * K;
  auto backward_unit = [K](int i) { return i / K * K + (K - 1 - i % K); };
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * static_cast<size_t>(units));
    const int warmup = std::min(p.P - d - 2 + K, units);
    int f = 0, b = 0;
    while (f < warmup) q.F(f++, d);
    while (f < units) {
      q.F(f++, d);
      q.B(backward_unit(b++), d);
    }
    while (b < units) q.B(backward_unit(b++), d);
  }
  return s;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kSeq1F1B = {
    .name = "seq1f1b",
    .description = "Seq1F1B: 1F1B over K sequence slices per microbatch (--slices K), backward slices K-1..0",
    .preconditions = "one chunk per device; --slices K ≥ 1 (K = 1 is 1F1B)",
    .placement = Placement::kLoop,
    .fixed_chunks = 1,
    .generate = &GenerateSeq1F1B,
    .takes_slices = true,
};

}  // namespace ppsim

#include <algorithm>

#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// ZB-V (Qi et al., ICLR 2024, §6), as PyTorch's ScheduleZBVZeroBubble
// computes it per rank. V-shape placement: device d holds chunk 0 = stage d
// and chunk 1 = stage 2P-1-d, so a microbatch goes down the devices and
// back up. With N = max(M, 2P-1) microbatches:
//   warm-up   2(P-d)-1 F0; d × (F1, F0); P-d × (F1, B1, W1)
//   steady    while forwards remain: [F0 if any left], B0, W0, F1, B1, W1
//   cool-down d × (B0, B1); P-d × (B0, W0); the remaining W1, then W0
// (F0 = forward of chunk 0, etc.; each chunk's ops in microbatch order).
// When M < 2P-1 the order is built for N and the ops of microbatches ≥ M
// are dropped, as PyTorch does.
Result<Schedule> GenerateZBV(const Problem& p) {
  Schedule s = EmptySchedule(p);
  const int P = p.P, M = p.M;
  const int n = std::max(M, 2 * P - 1);
  for (int d = 0; d < P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(6 * M);
    const int stage[2] = {d, 2 * P - 1 - d};
    int f[2] = {0, 0}, b[2] = {0, 0}, w[2] = {0, 0};
    auto add = [&](OpKind kind, int chunk) {
      int& next = kind == OpKind::kF ? f[chunk] : kind == OpKind::kB ? b[chunk] : w[chunk];
      if (next < M) q.Add(kind, next, stage[chunk]);
      ++next;
    };
    for (int i = 0; i < 2 * (P - d) - 1; ++i) add(OpKind::kF, 0);
    for (int i = 0; i < d; ++i) {
      add(OpKind::kF, 1);
      add(OpKind::kF, 0);
    }
    for (int i = 0; i < P - d; ++i) {
      add(OpKind::kF, 1);
      add(OpKind::kB, 1);
      add(OpKind::kW, 1);
    }
    while (f[1] < f[0] || f[0] < n) {
      if (f[0] < n) add(OpKind::kF, 0);
      add(OpKind::kB, 0);
      add(OpKind::kW, 0);
      add(OpKind::kF, 1);
      add(OpKind::kB, 1);
      add(OpKind::kW, 1);
    }
    for (int i = 0; i < d; ++i) {
      add(OpKind::kB, 0);
      add(OpKind::kB, 1);
    }
    for (int i = 0; i < P - d; ++i) {
      add(OpKind::kB, 0);
      add(OpKind::kW, 0);
    }
    while (w[1] < b[1]) add(OpKind::kW, 1);
    while (w[0] < b[0]) add(OpKind::kW, 0);
  }
  return s;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kZBV = {
    .name = "zbv",
    .description = "ZB-V (Zero Bubble, PyTorch ScheduleZBVZeroBubble): V-shape placement, 2 chunks per device, B split "
                   "from W",
    .preconditions = "exactly 2 chunks per device (V-shape); any M ≥ 1",
    .placement = Placement::kVShape,
    .fixed_chunks = 2,
    .split_backward = true,
    .generate = &GenerateZBV,
};

}  // namespace ppsim

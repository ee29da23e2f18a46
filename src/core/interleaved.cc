#include <algorithm>

#include "core/interleaved_order.h"
#include "ppsim/generators.h"

namespace ppsim {

// Megatron-LM's interleaved 1F1B (interleaved_order.h). With --group g it is
// Megatron's order for microbatch_group_size_per_vp_stage = g, under
// Megatron's own checks. Without it, microbatches go in PyTorch's rounds
// (ScheduleInterleaved1F1B): groups of M / max(1, M/P) — P when P divides M,
// where PyTorch and Megatron (g = P) agree.
Result<Schedule> GenerateInterleaved(const Problem& p) {
  const int group = p.group != 0 ? p.group : p.M / std::max(1, p.M / p.P);
  return InterleavedOrder(p, group, 0, false);
}

}  // namespace ppsim

#include "core/interleaved_order.h"
#include "ppsim/generators.h"

namespace ppsim {

// Megatron-LM's combined 1F1B (overlap_moe_expert_parallel_comm: schedules.py's
// interleaved schedule calling combined_1f1b.py for every step). The order is
// Megatron's interleaved one (interleaved_order.h, groups of g) with one more
// warm-up forward per device, capped at v·M, "so that the forward and the
// backward computations are independent in all 1f1b steps". Each steady step
// is then one overlapped call, an (F;B) pair: its backward is Megatron's full
// backward_step, so the pair costs F + B (or FB when given) and sends its
// input gradient upstream only when it ends. Warm-up forwards and cool-down
// backwards run alone. With P = 1 this is combined_1f1b_schedule_for_no_
// pipelining: F0, (F1;B0), ..., (F[M-1];B[M-2]), B[M-1].
Result<Schedule> GenerateCombined1F1B(const Problem& p) {
  return InterleavedOrder(p, MegatronGroup(p), 1, true);
}

}  // namespace ppsim

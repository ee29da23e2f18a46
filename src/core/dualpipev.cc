#include <string>

#include "dual_order.h"
#include "dualpipe_idle.h"
#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// DualPipeV (DeepSeek's DualPipe folded into a V, as PyTorch's
// ScheduleDualPipeV computes it): V-shape placement, device d holds stage d
// (phase 0) and stage 2P-1-d (phase 1); all M microbatches go down and back
// up. See dual_order.h for the per-rank steps.
Result<Schedule> GenerateDualPipeV(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(6 * p.M);
    const DualRank r = DualPipeVRank(p, d);
    AppendDualOrder(DualRankOrder(r.ranks, r.rank, r.chunks), r.stage, r.first, p.overlap, q);
  }
  return s;
}

Error CheckDualPipeV(const Problem& p) {
  if (p.M < 2 * p.P)
    return Fail(ErrorCode::kPrecondition, "dualpipev needs M ≥ 2P (as many microbatches as stages): P = " +
                                              std::to_string(p.P) + " needs M ≥ " + std::to_string(2 * p.P) +
                                              ", got M = " + std::to_string(p.M));
  return Error::Ok();
}

// DeepSeek's (PP/2-1)(F&B+B-3W) with PP = 2P: DualPipe's ranks folded onto
// P devices (dualpipe_idle.h).
Prediction PredictDualPipeV(const Problem& p) { return PredictDualPipeIdle(p, p.P, "(P-1)(F&B+B-3W)"); }

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kDualPipeV = {
    .name = "dualpipev",
    .description = "DualPipeV (DeepSeek dualpipev.py, PyTorch ScheduleDualPipeV): DualPipe folded into a V on P "
                   "devices, overlapped F&B pairs with a full backward (without overlap: F then B)",
    .preconditions = "exactly 2 chunks per device (V-shape); M ≥ 2P (odd P and M are fine)",
    .placement = Placement::kVShape,
    .fixed_chunks = 2,
    .split_backward = true,
    .generate = &GenerateDualPipeV,
    .check = &CheckDualPipeV,
    .predict = &PredictDualPipeV,
};

}  // namespace ppsim

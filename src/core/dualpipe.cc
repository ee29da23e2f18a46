#include <string>

#include "dual_order.h"
#include "dualpipe_idle.h"
#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// DualPipe (DeepSeek-V3): two copies of the model run in opposite
// directions (Placement::kDualPipe). Microbatches [0, M/2) go down copy 0
// (stage s on device s), microbatches [M/2, M) go up copy 1 (stage P+i on
// device P-1-i), so each device holds two stages and twice the parameters.
// Rank r and its mirror P-1-r run the DualPipeV steps of V-rank
// min(r, P-1-r) of P/2, each with the direction that starts at its own end
// of the pipeline as phase 0.
Result<Schedule> GenerateDualPipe(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(6 * p.M);
    const DualRank r = DualPipeRank(p, d);
    AppendDualOrder(DualRankOrder(r.ranks, r.rank, r.chunks), r.stage, r.first, p.overlap, q);
  }
  return s;
}

Error CheckDualPipe(const Problem& p) {
  if (p.P % 2 != 0)
    return Fail(ErrorCode::kPrecondition, "dualpipe needs an even number of devices (its two directions mirror "
                                          "each other), got P = " + std::to_string(p.P) +
                                              " (use dualpipev for any P)");
  if (p.M % 2 != 0 || p.M < 2 * p.P)
    return Fail(ErrorCode::kPrecondition, "dualpipe needs an even M ≥ 2P (M/2 microbatches per direction, at least "
                                          "P each): P = " + std::to_string(p.P) + " needs M ∈ {" +
                                              std::to_string(2 * p.P) + ", " + std::to_string(2 * p.P + 2) +
                                              ", ...}, got M = " + std::to_string(p.M));
  return Error::Ok();
}

// DeepSeek's (PP/2-1)(F&B+B-3W) with PP = P (dualpipe_idle.h).
Prediction PredictDualPipe(const Problem& p) { return PredictDualPipeIdle(p, p.P / 2, "(P/2-1)(F&B+B-3W)"); }

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kDualPipe = {
    .name = "dualpipe",
    .description = "DualPipe (DeepSeek-V3, dualpipe.py): two model copies in opposite directions, overlapped F&B pairs "
                   "with a full backward (costs.FB, or without overlap F then B), B/W split only in warm-up and "
                   "cool-down; 2x parameters",
    .preconditions = "even P; even M ≥ 2P (M/2 per direction)",
    .placement = Placement::kDualPipe,
    .fixed_chunks = 2,
    .split_backward = true,
    .generate = &GenerateDualPipe,
    .check = &CheckDualPipe,
    .predict = &PredictDualPipe,
};

}  // namespace ppsim

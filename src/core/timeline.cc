#include "ppsim/timeline.h"

namespace ppsim {

std::vector<PlacedOp> Timeline::Ops() const {
  std::vector<PlacedOp> ops;
  ops.reserve(schedule.op_count());
  int next_overlap = 0;
  for (int d = 0; d < static_cast<int>(schedule.devices.size()); ++d) {
    for (const Slot& slot : schedule.devices[d]) {
      const int overlap = slot.pair() ? next_overlap++ : -1;
      for (OpId id : {slot.op, OpId{slot.overlapped}}) {
        if (id == kNoOp) continue;
        const Op op = schedule.space.At(id);
        const bool full = slot.full && op.kind == OpKind::kB;
        const int K = problem.slices;  // ids count slice units (slices.h)
        ops.push_back({d, op.stage, op.kind, op.microbatch / K, Start(id), end[id], overlap, full, op.microbatch % K});
      }
    }
  }
  return ops;
}

}  // namespace ppsim

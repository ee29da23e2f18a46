// Small helper for generators: appends ops to one device's queue by
// (kind, microbatch, stage).
#pragma once

#include "ppsim/schedule.h"

namespace ppsim {

inline Schedule EmptySchedule(const Problem& p) {
  Schedule s;
  s.space = p.Space();
  s.devices.resize(p.P);
  return s;
}

class QueueBuilder {
 public:
  QueueBuilder(Schedule& schedule, int device) : space_(schedule.space), queue_(schedule.devices[device]) {}
  void Add(OpKind kind, int microbatch, int stage) { queue_.push_back({space_.Id(kind, microbatch, stage), kNoOp}); }
  void F(int microbatch, int stage) { Add(OpKind::kF, microbatch, stage); }
  void B(int microbatch, int stage) { Add(OpKind::kB, microbatch, stage); }
  void W(int microbatch, int stage) { Add(OpKind::kW, microbatch, stage); }
  // A full backward (input and weight gradients in one op, no W; split schedules).
  void FullB(int microbatch, int stage) { queue_.push_back({space_.Id(OpKind::kB, microbatch, stage), kNoOp, true}); }
  // An overlapped pair: forward of (fm, fs) with backward of (bm, bs), one
  // compound op; `full`: the backward is a full one (split schedules).
  void Pair(int fm, int fs, int bm, int bs, bool full = false) {
    queue_.push_back({space_.Id(OpKind::kF, fm, fs), space_.Id(OpKind::kB, bm, bs), full});
  }
  void Reserve(size_t n) { queue_.reserve(n); }

 private:
  const OpSpace& space_;
  std::vector<Slot>& queue_;
};

}  // namespace ppsim

// A Schedule is the order in which each device works through its own queue.
// Schedules differ only in this order; placement (placement.h) turns it into
// time. A slot is one op, or an overlapped forward+backward pair (DualPipe)
// that runs as one compound op.
//
// Full backward. In a split-backward schedule B is the input-gradient pass
// and W(m,s) follows later. A slot may instead run B(m,s) as a *full*
// backward (`Slot::full`): input and weight gradients in one op, as PyTorch's
// B, Megatron's backward_step and DeepSeek's overlapped pairs run it. It
// costs Costs::FullBackward (B+W unless set on its own), its dependents wait
// for its end, its activations are freed at its end, and W(m,s) does not
// exist: in a split schedule, B(m,s) is full iff no W(m,s) is listed. In an
// unsplit schedule every B is already full and `full` stays false.
#pragma once

#include <string>
#include <vector>

#include "ppsim/op.h"
#include "ppsim/problem.h"

namespace ppsim {

// 8 bytes: `full` lives in the spare top bit beside `overlapped` (ids stay
// below kMaxOps < 2^30), so a schedule of 10^7 ops takes 80 MB, not 120.
struct Slot {
  OpId op = kNoOp;
  OpId overlapped : 31 = kNoOp;  // second op of an overlapped pair, else kNoOp
  bool full : 1 = false;         // the slot's B (op or overlapped) is a full backward; split schedules only
  bool pair() const { return overlapped != kNoOp; }
  OpId backward(const OpSpace& space) const;  // the slot's B op, or kNoOp
  friend bool operator==(const Slot&, const Slot&) = default;
};
static_assert(sizeof(Slot) == 8, "a Slot is two ids; `full` must stay in the spare bit");
static_assert(kMaxOps < (std::int64_t{1} << 30), "Slot::overlapped holds ids in 31 bits");

struct Schedule {
  std::string name;             // generator name, e.g. "1f1b"
  bool split_backward = false;  // true: B is input-grad only and W exists
  OpSpace space;
  std::vector<std::vector<Slot>> devices;  // devices[d] = d's queue, in order

  std::int64_t op_count() const;  // ops (a pair counts two)
};

// Checks that every op the schedule needs appears exactly once and on the
// device its stage is placed on, and no op is unknown. A full backward's W
// must not appear; `full` needs a split schedule and a slot with a B. Returns kOk or a
// kBadSchedule Error naming the op ("F3@s1 appears twice (device 0 and 2)").
Error CheckComplete(const Problem& problem, const Schedule& schedule);

}  // namespace ppsim

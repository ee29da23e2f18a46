// A Schedule is the order in which each device works through its own queue.
// Schedules differ only in this order; placement (placement.h) turns it into
// time. A slot is one op, or an overlapped forward+backward pair (DualPipe)
// that runs as one compound op.
#pragma once

#include <string>
#include <vector>

#include "ppsim/op.h"
#include "ppsim/problem.h"

namespace ppsim {

struct Slot {
  OpId op = kNoOp;
  OpId overlapped = kNoOp;  // second op of an overlapped pair, else kNoOp
  bool pair() const { return overlapped != kNoOp; }
  friend bool operator==(const Slot&, const Slot&) = default;
};

struct Schedule {
  std::string name;             // generator name, e.g. "1f1b"
  bool split_backward = false;  // true: B is input-grad only and W exists
  OpSpace space;
  std::vector<std::vector<Slot>> devices;  // devices[d] = d's queue, in order

  std::int64_t op_count() const;  // ops (a pair counts two)
};

// Checks that every op the schedule needs appears exactly once and on the
// device its stage is placed on, and no op is unknown. Returns kOk or a
// kBadSchedule Error naming the op ("F3@s1 appears twice (device 0 and 2)").
Error CheckComplete(const Problem& problem, const Schedule& schedule);

}  // namespace ppsim

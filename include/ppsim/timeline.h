// A Timeline is a Schedule placed in time: every op's start and end tick.
// It is immutable once Place() returns it; metrics, claims and every renderer
// read it and nothing else.
#pragma once

#include <vector>

#include "ppsim/op.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

// One op as users see it (the `ops` entries of `simulate --json`).
struct PlacedOp {
  int device = 0;
  int stage = 0;
  OpKind kind = OpKind::kF;
  int microbatch = 0;
  Tick start = 0;
  Tick end = 0;
  int overlap = -1;  // shared id of an overlapped F+B pair, else -1
  bool full = false;  // a full backward in a split schedule (no W follows; see schedule.h)
  Op op() const { return Op{kind, microbatch, stage}; }
  friend bool operator==(const PlacedOp&, const PlacedOp&) = default;
};

struct Timeline {
  Problem problem;
  Schedule schedule;
  std::vector<Tick> start;  // by OpId; -1 for ids the schedule does not use
  std::vector<Tick> end;    // by OpId; -1 likewise
  Tick makespan = 0;

  bool Has(OpId id) const { return id >= 0 && id < static_cast<OpId>(start.size()) && start[id] >= 0; }
  // All ops grouped by device, each device's in execution order.
  std::vector<PlacedOp> Ops() const;
};

}  // namespace ppsim

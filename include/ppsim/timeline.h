// A Timeline is a Schedule placed in time: every op's start and end tick.
// It is immutable once Place() returns it; metrics, claims and every renderer
// read it and nothing else.
#pragma once

#include <memory>
#include <vector>

#include "ppsim/op.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

struct CommFigures;  // comm_run.h
struct CommProgram;  // comm_model.h

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
  int slice = 0;      // sequence slice of the microbatch (slices.h); 0 without slices
  Op op() const { return Op{kind, microbatch, stage}; }
  friend bool operator==(const PlacedOp&, const PlacedOp&) = default;
};

// An op's start is its end minus its row's cost (Costs::Of its kind and
// stage) unless its slot is compound: an overlapped pair or a full backward
// (Place's SlotDuration), or ops have their own durations
// (Problem::op_durations). So starts are stored only for those; for the
// others Start() computes them, and a run of 8.4 M
// ops first-touches 67 MB less (docs/performance.md).
struct Timeline {
  Problem problem;
  Schedule schedule;
  std::vector<Tick> end;           // by OpId; -1 for ids the schedule does not use
  std::vector<Tick> stored_start;  // by OpId (-1 likewise) if a slot is compound or op_durations given, else empty
  Tick makespan = 0;
  // What the communication did when the problem models it (comm_options.h;
  // the makespan then includes the last transfer); null otherwise.
  std::shared_ptr<const CommFigures> comms;
  // The schedule file's own communication (a PyTorch compute_comms CSV,
  // io/imported_schedule.h), with comms modelled or not: what
  // `--export pytorch-comms-csv` writes back instead of lowering again;
  // null otherwise.
  std::shared_ptr<const CommProgram> own_program;

  bool Has(OpId id) const { return id >= 0 && id < static_cast<OpId>(end.size()) && end[id] >= 0; }
  // REQUIRES: 0 <= id < end.size(). -1 for ids the schedule does not use.
  Tick Start(OpId id) const {
    if (!stored_start.empty()) return stored_start[id];
    if (end[id] < 0) return -1;
    const Op op = schedule.space.At(id);
    return end[id] - problem.costs.Of(op.kind, op.stage);
  }
  // All ops grouped by device, each device's in execution order.
  std::vector<PlacedOp> Ops() const;
};

}  // namespace ppsim

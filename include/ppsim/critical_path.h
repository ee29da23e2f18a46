// The critical path: one chain of ops from tick 0 to the makespan in which
// each op starts exactly when its predecessor ends — its predecessor being
// either its data dependency (plus the communication latency when the two sit
// on different devices) or the previous op on its own device. No op on the
// chain could start earlier without the makespan growing with it: this is
// what "the bubble is fixed by the shape of the graph" means.
//
// Earliest-start placement guarantees that every op with start > 0 has such
// a predecessor (it started at the max of the two ends, and one of them is
// the max), so walking back from an op that ends at the makespan always
// reaches tick 0 without searching.
#pragma once

#include <vector>

#include "ppsim/op.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct CriticalStep {
  OpId op = kNoOp;  // the op (the first op of an overlapped pair's slot)
  enum class Via : unsigned char {
    kStart,       // the first step: starts at tick 0
    kDependency,  // starts when its data dependency ends (+ comm across devices)
    kDevice,      // starts when the previous op on its device ends
  } via = Via::kStart;
};

// In time order: steps.front() starts at 0, steps.back() ends at the
// makespan. Where both predecessors end exactly at an op's start the data
// dependency is preferred (it shows the graph's shape), and among ops ending
// at the makespan the one on the lowest device is chosen.
// REQUIRES: `timeline` comes from Place() (every op starts as early as its
// device and dependency allow). Otherwise the chain stops at the first op
// with no tight predecessor, so front().start may be > 0.
std::vector<CriticalStep> CriticalPath(const Timeline& timeline);

// The same chain as positions in timeline.Ops() (the `ops` list of
// `simulate --json`).
std::vector<int> CriticalPathIndices(const Timeline& timeline);

}  // namespace ppsim

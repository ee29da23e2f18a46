// Validation of a timeline someone else produced (or an old ppsim wrote): is
// it legal, and is it tight? Legal: every op appears once, one device runs
// one op at a time (an overlapped pair shares its slot), every dependency of
// docs/semantics.md is met with its communication latency. A full backward
// (PlacedOp::full) needs no W and lasts Costs::FullBackward. Sequence slices
// (slices.h) add the same-stage slice dependencies; R ops (recompute.h) wait
// on their F (and, with recompute_at before_b, on B's gradient) and B waits
// on its R. Tight: every op starts at the earliest tick its device and its
// dependencies allow — a simulator that lets an op start early, or late, is
// caught here with the op named.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct TimelineToCheck {
  int P = 0;  // devices; 0 = infer from the ops
  int S = 0;  // virtual stages; 0 = infer
  int M = 0;  // microbatches; 0 = infer
  std::optional<Placement> placement;  // unknown: each stage must stay on one device
  Tick comm = 0;
  std::optional<Costs> costs;  // known: durations are checked against them
  // Sequence slices per microbatch (PlacedOp::slice in [0, slices)); a
  // slice lasts its cost × slice_weights[slice] (empty: 1 each).
  int slices = 1;
  std::vector<Tick> slice_weights;
  std::vector<Tick> microbatch_weights;  // per-microbatch cost factors (empty: 1 each)
  RecomputeAt recompute_at = RecomputeAt::kBeforeB;  // where R ops wait, when there are any
  std::vector<PlacedOp> ops;
};

struct Violation {
  std::string rule;     // "missing", "duplicate", "overlap", "dependency", "not-tight", "duration", "device"
  std::string message;  // "F0@s1 starts at 0 but F0@s0 ends at 1"
};

// Violations listed at most; a timeline that breaks every rule at every op
// has millions, and listing them all cost gigabytes (6.3 M ended in
// std::terminate). Beyond this many, they are only counted.
inline constexpr std::int64_t kMaxViolationsListed = 100'000;

// The violations found, in a stable order (first the shape, then per op in
// order of start), at most kMaxViolationsListed of them; `*unlisted`, when
// given, receives how many more were found. Empty iff the timeline is legal
// and tight.
std::vector<Violation> ValidateTimeline(const TimelineToCheck& timeline, std::int64_t* unlisted = nullptr);

}  // namespace ppsim

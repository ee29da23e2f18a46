// A simulated Timeline as the input ValidateTimeline checks (shared by the
// core tests that validate what a generator placed).
#pragma once

#include "ppsim/timeline.h"
#include "ppsim/validate.h"

namespace ppsim {

inline TimelineToCheck ToCheck(const Timeline& t) {
  TimelineToCheck c;
  c.P = t.problem.P;
  c.M = t.problem.M;
  c.S = t.problem.stages();
  c.placement = t.problem.placement;
  c.comm = t.problem.comm;
  c.costs = t.problem.costs;
  c.ops = t.Ops();
  return c;
}

}  // namespace ppsim

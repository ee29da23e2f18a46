// The one call most callers need: name + problem -> placed timeline.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim {

// Generates the named schedule for `problem` (taking the generator's
// placement and chunk count), scales its costs to ticks (cost_scale.h; on
// its own scale unless ScaleRuns already did) and places it.
Result<Timeline> Simulate(std::string_view schedule, Problem problem);

// Puts runs that are compared on one model and one tick: resolves each
// run's v and placement (ResolveRun) and scales every problem at the common
// TicksPerUnit. On error *failed (if given) is the index of the run at fault.
Error ScaleRuns(const std::vector<std::string>& schedules, std::vector<Problem>& problems, int* failed = nullptr);

}  // namespace ppsim

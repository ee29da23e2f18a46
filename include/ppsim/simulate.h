// The one call most callers need: name + problem -> placed timeline.
#pragma once

#include <string_view>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim {

// Generates the named schedule for `problem` (taking the generator's
// placement and chunk count) and places it.
Result<Timeline> Simulate(std::string_view schedule, Problem problem);

}  // namespace ppsim

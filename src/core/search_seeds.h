// The schedules a search starts from: every registered generator that runs
// on the problem's placement and chunk count (new generators are picked up
// from the registry), each written with a split backward, and one schedule
// that always fits: one microbatch at a time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsim/generators.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::search {

struct NamedSchedule {
  std::string name;
  Schedule schedule;
};

// A schedule without W gets each W right after its B (a full backward, as
// ppsim writes one); an overlapped pair becomes its two ops, F first.
Schedule WithSplitBackward(const Problem& problem, Schedule schedule);

// Every generator in Generators() whose placement and chunk count match
// `problem`, in registry order. Their schedules are made one at a time
// (FixedSchedule): at 8 M ops each holds 100 MB.
std::vector<const GeneratorInfo*> FixedGenerators(const Problem& problem);

// `generator`'s schedule with a split backward, named after it; nothing when
// its preconditions do not hold on `problem`.
std::optional<NamedSchedule> FixedSchedule(const Problem& problem, const GeneratorInfo& generator);

// One microbatch at a time: F down the stages, then B (each with its W)
// back up. A device holds one microbatch's sets at a time: the least
// memory any schedule can run in.
Schedule OneAtATime(const Problem& problem);

}  // namespace ppsim::search

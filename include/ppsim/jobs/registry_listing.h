// What `ppsim list` prints: every schedule of the registry (generators.h)
// with its placement, chunks and preconditions, and the table of problem keys
// (problem_keys.h), as text and as JSON (docs/formats.md).
#pragma once

#include <string>

namespace ppsim::jobs {

// A schedule a paragraph, in the registry's order.
std::string ScheduleListText();
// {"schedules": [{name, description, preconditions, placement, chunks,
// split_backward}]}, indented by two, with a trailing newline.
std::string ScheduleListJson();
// {"keys": [{key, type, range, default, doc}]}, indented by two, with a
// trailing newline. (The text form is KeyTableText(), problem_keys.h.)
std::string KeyTableJson();

}  // namespace ppsim::jobs

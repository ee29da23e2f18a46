// `simulate --schedule-file FILE` and `--export FORMAT`: the glue between the
// command line and the schedule readers and writers in io.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim::cli {

// Reads FILE, takes P, M, v and placement from it and costs, comm and hold
// from `flags`, and places it. `shape_flags_given`: -P/-M/--chunks were on
// the command line; they must then agree with the file. Errors name FILE
// (a deadlock: "FILE: deadlock: device 0 waits on ...").
Result<Timeline> SimulateScheduleFile(const std::string& path, const Problem& flags, bool shape_flags_given);

// The schedule of `timeline` as "pytorch-csv" or "text".
Result<std::string> ExportSchedule(const std::string& format, const Timeline& timeline);

}  // namespace ppsim::cli

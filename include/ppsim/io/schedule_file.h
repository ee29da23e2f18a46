// Reading a schedule file by its name: FILE.csv is PyTorch's compute-only
// CSV (pytorch_csv.h), anything else ppsim's text format (schedule_text.h);
// simulating what was read; writing a timeline's schedule back out. What
// `simulate --schedule-file` and `--export` do, and Python's
// simulate_pytorch / to_pytorch.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/io/imported_schedule.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

// kIo if the file cannot be read; the reader's errors otherwise, each
// naming `path`.
Result<ImportedSchedule> ReadScheduleFile(const std::string& path);

// True iff `path` ends in ".csv" (any case).
bool IsPytorchCsvPath(const std::string& path);

// Places `imported` with P, M, v and placement from it and costs, comm and
// hold from `flags`. `shape_given`: the caller set P/M/v explicitly; they
// must then agree with the schedule. Errors name `source` (a deadlock:
// "FILE: deadlock: device 0 waits on ...").
Result<Timeline> SimulateImported(ImportedSchedule imported, const Problem& flags, bool shape_given,
                                  const std::string& source);

// ReadScheduleFile + SimulateImported.
Result<Timeline> SimulateScheduleFile(const std::string& path, const Problem& flags, bool shape_given);

// The formats a schedule is exported in, one row each: the one table that
// ExportSchedule, the CLI's --export (simulate, search) and Python's
// Timeline.to_schedule / SearchResult.order read.
struct ExportFormat {
  const char* name;  // --export value
  Result<std::string> (*write)(const Timeline& timeline);
};
const std::vector<ExportFormat>& ExportFormats();
// Their names, "pytorch-csv, text": for help strings and errors.
std::string ExportFormatList();

// The schedule of `timeline` in the format named `format` (kUsage, naming
// the field "export", otherwise).
Result<std::string> ExportSchedule(const std::string& format, const Timeline& timeline);

}  // namespace ppsim::io

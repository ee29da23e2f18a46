// Reading a schedule file by its name: FILE.csv is PyTorch's compute-only
// CSV (pytorch_csv.h), anything else ppsim's text format (schedule_text.h).
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/imported_schedule.h"

namespace ppsim {

// kIo if the file cannot be read; the reader's errors otherwise, each
// naming `path`.
Result<ImportedSchedule> ReadScheduleFile(const std::string& path);

// True iff `path` ends in ".csv" (any case).
bool IsPytorchCsvPath(const std::string& path);

}  // namespace ppsim

// Shared by the schedule readers: turns per-device lists of ops, each with
// its position in the file, into an ImportedSchedule (see
// imported_schedule.h), with every error naming the file and, where one op
// is at fault, its line and column.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/io/imported_schedule.h"

namespace ppsim::io {

struct SourceOp {
  Op op;
  int line = 0;  // 1-based
  int col = 0;   // 1-based
  int slice = -1;  // a sequence slice's index ("F3.1"), -1 when the op names none
};

struct SourceSlot {
  SourceOp first;
  std::optional<SourceOp> second;  // an overlapped pair
  bool full = false;                // its B is a full backward (Slot::full)
};

// rows[d] = device d's queue in order. `split_backward`: B is the
// input-gradient pass and every (m, s) needs a W.
// Errors: kBadSchedule (a stage on two devices, an unsupported placement,
// a duplicate, missing ops), kTooLarge (sizes over the limits).
Result<ImportedSchedule> BuildImportedSchedule(const std::string& source,
                                               const std::vector<std::vector<SourceSlot>>& rows,
                                               bool split_backward);

// "FILE:line:col: " — the prefix of every positioned message.
std::string Where(const std::string& source, int line, int col);

// Largest stage and microbatch index a reader accepts (the core's limits).
inline constexpr int kMaxStageIndex = kMaxDevices * kMaxChunks - 1;
inline constexpr int kMaxMicrobatchIndex = kMaxMicrobatches - 1;

}  // namespace ppsim::io

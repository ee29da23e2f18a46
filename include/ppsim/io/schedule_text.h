// ppsim's own plain-text schedule format (docs/formats.md): one line per
// device, in device order, listing that device's ops in the order it runs
// them; `#` starts a comment; blank and comment-only lines are skipped.
//
//   # 1F1B, P = 2, M = 3
//   F0 F1 B0 F2 B1 B2
//   F0 B0 F1 B1 F2 B2
//
// An op is KIND MICROBATCH [@s STAGE]: `F3`, `B0`, `W2`, `F3@s5`. Without
// @s the op is on the device's first stage (stage d on device d), which is
// all a v = 1 schedule needs. `(F3@s0;B1@s7)` is an overlapped F+B pair run
// as one compound op. Any W makes the backward split (B = input gradient);
// `BW3` is a full backward in a split schedule (input and weight gradients in
// one op, no W3 — Slot::full), also inside a pair: `(F3@s0;BW1@s7)`.
// `R3` is a recompute op (recompute.h): a file with any R recomputes, with
// the settings its header comment names (`recompute=full
// recompute_at=early recompute_inputs=1/10`, read from comment lines
// before the first op), else full before B; WriteScheduleText writes them.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/error.h"
#include "ppsim/io/imported_schedule.h"

namespace ppsim::io {

// Parses and checks a schedule. Errors: kParse "FILE:line:col: ..." for
// syntax; kBadSchedule for ops that are duplicated (with both positions),
// missing or on the wrong device; kTooLarge past the size limits.
Result<ImportedSchedule> ReadScheduleText(std::string_view text, const std::string& source);

// The text of `schedule`: bare ops when every device holds one stage,
// explicit @s otherwise. ReadScheduleText(WriteScheduleText(s)) gives s back.
std::string WriteScheduleText(const Problem& problem, const Schedule& schedule);

}  // namespace ppsim::io

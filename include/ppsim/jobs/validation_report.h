// What `ppsim validate` reports about a timeline it checked (validate.h):
// "ok: ..." with the op count and makespan, or the violations listed and a
// one-line verdict naming the first; with --json, one object.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/validate.h"

namespace ppsim::jobs {

struct ValidationReport {
  bool ok = true;       // legal and tight: no violation
  // The line --json prints, without its newline:
  // {"makespan", "ok", "ops", "violations": [{"message", "rule"}]}, and
  // "unlisted": N when more were found than listed (kMaxViolationsListed)
  std::string json;
  std::string text;     // "ok: 18 ops, legal and tight, makespan 18\n" when ok, else ""
  // The violations, "RULE: MESSAGE" a line, at most `max_shown` of them, then
  // "... and N more\n"; "" when ok.
  std::string listed;
  std::string verdict;  // "FILE: N violation(s); first: MESSAGE" when not ok, else ""
};

// REQUIRES: `violations` is ValidateTimeline(timeline, &unlisted). `file`
// names the timeline in the verdict. The counts (the verdict's, "... and N
// more", --json's "unlisted" when > 0) include the unlisted ones.
ValidationReport ReportValidation(const TimelineToCheck& timeline, const std::vector<Violation>& violations,
                                  const std::string& file, int max_shown, std::int64_t unlisted = 0);

// `ppsim validate FILE.csv`: PyTorch's schedule CSV (compute-only or
// compute_comms) read as `simulate --schedule-file` reads it — PyTorch's
// own order rules first (io/pytorch_rules.h), then completeness — and
// placed at simulate's default costs; that placement is then checked as a
// timeline is.
// Errors: the reader's (kBadSchedule naming FILE:row:col and the action),
// a deadlock.
Result<ValidationReport> ValidateScheduleFile(const std::string& path, int max_shown);

}  // namespace ppsim::jobs

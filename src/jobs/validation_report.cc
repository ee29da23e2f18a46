#include "ppsim/jobs/validation_report.h"

#include <algorithm>

#include "json_dump.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/io/schedule_file.h"

namespace ppsim::jobs {

ValidationReport ReportValidation(const TimelineToCheck& timeline, const std::vector<Violation>& violations,
                                  const std::string& file, int max_shown, std::int64_t unlisted) {
  ValidationReport r;
  r.ok = violations.empty();
  Tick makespan = 0;
  for (const PlacedOp& op : timeline.ops) makespan = std::max(makespan, op.end);
  nlohmann::json list = nlohmann::json::array();
  for (const Violation& v : violations) list.push_back({{"rule", v.rule}, {"message", v.message}});
  nlohmann::json j = {{"ok", r.ok}, {"ops", timeline.ops.size()}, {"makespan", makespan}, {"violations", std::move(list)}};
  if (unlisted > 0) j["unlisted"] = unlisted;
  r.json = io::DumpJson(j);
  if (r.ok) {
    r.text = "ok: " + std::to_string(timeline.ops.size()) + " ops, legal and tight, makespan " +
             std::to_string(makespan) + "\n";
    return r;
  }
  const std::int64_t found = static_cast<std::int64_t>(violations.size()) + unlisted;
  const std::int64_t shown = std::min<std::int64_t>(max_shown, static_cast<std::int64_t>(violations.size()));
  for (std::int64_t i = 0; i < shown; ++i) r.listed += violations[i].rule + ": " + violations[i].message + "\n";
  if (found > shown) r.listed += "... and " + std::to_string(found - shown) + " more\n";
  r.verdict = file + ": " + std::to_string(found) + " violation(s); first: " + violations[0].message;
  return r;
}

Result<ValidationReport> ValidateScheduleFile(const std::string& path, int max_shown) {
  Result<Problem> defaults = io::ToProblem(io::ProblemOptions{});  // simulate's, with no flag given
  if (!defaults) return defaults.error();
  Result<Timeline> t = io::SimulateScheduleFile(path, *defaults, false);
  if (!t) return t.error();
  TimelineToCheck check;
  check.P = t->problem.P;
  check.S = t->problem.stages();
  check.M = t->problem.M;
  check.placement = t->problem.placement;
  check.costs = t->problem.costs;
  check.ops = t->Ops();
  std::int64_t unlisted = 0;
  const std::vector<Violation> violations = ValidateTimeline(check, &unlisted);
  return ReportValidation(check, violations, io::DisplayPath(path), max_shown, unlisted);
}

}  // namespace ppsim::jobs

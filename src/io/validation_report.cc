#include "ppsim/io/validation_report.h"

#include <algorithm>

#include "io/json_dump.h"

namespace ppsim::io {

ValidationReport ReportValidation(const TimelineToCheck& timeline, const std::vector<Violation>& violations,
                                  const std::string& file, int max_shown) {
  ValidationReport r;
  r.ok = violations.empty();
  Tick makespan = 0;
  for (const PlacedOp& op : timeline.ops) makespan = std::max(makespan, op.end);
  nlohmann::json list = nlohmann::json::array();
  for (const Violation& v : violations) list.push_back({{"rule", v.rule}, {"message", v.message}});
  r.json = DumpJson({{"ok", r.ok}, {"ops", timeline.ops.size()}, {"makespan", makespan}, {"violations", std::move(list)}});
  if (r.ok) {
    r.text = "ok: " + std::to_string(timeline.ops.size()) + " ops, legal and tight, makespan " +
             std::to_string(makespan) + "\n";
    return r;
  }
  const int shown = std::min<int>(max_shown, static_cast<int>(violations.size()));
  for (int i = 0; i < shown; ++i) r.listed += violations[i].rule + ": " + violations[i].message + "\n";
  if (static_cast<int>(violations.size()) > shown)
    r.listed += "... and " + std::to_string(violations.size() - shown) + " more\n";
  r.verdict = file + ": " + std::to_string(violations.size()) + " violation(s); first: " + violations[0].message;
  return r;
}

}  // namespace ppsim::io

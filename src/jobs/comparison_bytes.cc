#include "comparison_bytes.h"

#include <algorithm>


namespace ppsim::jobs {
namespace {

std::string Label(const ComparedRun& r) {
  return r.run.timeline.schedule.name + (r.setting.empty() ? "" : " " + r.setting);
}

std::int64_t Fullest(const std::vector<std::int64_t>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

}  // namespace

bool ComparesBytes(const std::vector<ComparedRun>& runs) { return !runs.empty() && runs[0].run.metrics.bytes; }

std::vector<std::int64_t> PeakBytes(const ComparedRun& run) { return run.run.metrics.peak_bytes_per_device; }

std::string TradeLines(const std::vector<ComparedRun>& runs) {
  if (!ComparesBytes(runs) || runs.size() < 2) return "";
  const ComparedRun& base = runs[0];
  const std::vector<std::int64_t> base_bytes = PeakBytes(base);
  const Tick base_span = base.run.metrics.makespan;
  std::string out;
  for (size_t i = 1; i < runs.size(); ++i) {
    const std::vector<std::int64_t> bytes = PeakBytes(runs[i]);
    const Tick span = runs[i].run.metrics.makespan;
    std::string line = "against " + Label(base) + ": " + Label(runs[i]) + " pays " + std::to_string(span - base_span) +
                       " ticks (makespan " + std::to_string(span) + " against " + std::to_string(base_span) +
                       ") and saves " + std::to_string(Fullest(base_bytes) - Fullest(bytes)) +
                       " bytes on its fullest device (" + std::to_string(Fullest(bytes)) + " against " +
                       std::to_string(Fullest(base_bytes)) + "); per device";
    for (size_t d = 0; d < bytes.size() && d < base_bytes.size(); ++d)
      line += " " + std::to_string(base_bytes[d] - bytes[d]);
    out += line + "\n";
  }
  return out;
}

}  // namespace ppsim::jobs

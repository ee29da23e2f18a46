#include "ppsim/jobs/search_report.h"

namespace ppsim::jobs {

Result<std::string> SearchReportText(const io::SearchRun& run, const render::TextOptions& options) {
  const SearchResult& r = run.result;
  std::string out;
  if (r.timeline.makespan <= kSearchChartTicks) {
    Result<std::string> chart = render::RenderRunText(r.timeline.schedule.name, r.timeline, run.metrics, options);
    if (!chart) return chart.error();
    out = *chart + "\n";
  }
  return out + io::SearchSummaryLine(r);
}

}  // namespace ppsim::jobs

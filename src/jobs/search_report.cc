#include "ppsim/jobs/search_report.h"

#include <algorithm>

#include "ppsim/text_wrap.h"

namespace ppsim::jobs {

Result<std::string> SearchReportText(const jobs::SearchRun& run, const render::TextOptions& options) {
  std::string out;
  if (run.run.timeline.makespan <= kSearchChartTicks) {
    Result<std::string> chart = render::RenderRunText(run.run, options);
    if (!chart) return chart.error();
    out = *chart + "\n";
  }
  // The summary's lines wrapped between their phrases, as wide as the chart.
  const size_t columns = static_cast<size_t>(options.columns > 0 ? options.columns : render::kDefaultTextColumns);
  const std::string summary = jobs::SearchSummaryLine(run);
  for (size_t at = 0; at < summary.size();) {
    const size_t end = std::min(summary.find('\n', at), summary.size());
    out += WrapPhrases(summary.substr(at, end - at), columns);
    at = end + 1;
  }
  return out;
}

}  // namespace ppsim::jobs

// The jobs room: each command's library half, above render and scene, which
// the CLI and the Python module both call (README, "Layout"). This one is
// `ppsim search`'s report, the text both `ppsim search` prints and Python's
// str() of a search result is.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/jobs/search_run.h"
#include "ppsim/render/text_output.h"

namespace ppsim::jobs {

// Widest timeline the report draws above its summary line, in ticks.
inline constexpr Tick kSearchChartTicks = 160;

// The found schedule's text chart when it is at most kSearchChartTicks wide
// (drawn with `options`), then jobs::SearchSummaryLine.
Result<std::string> SearchReportText(const jobs::SearchRun& run, const render::TextOptions& options);

}  // namespace ppsim::jobs

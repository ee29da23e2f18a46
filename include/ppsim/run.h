// A Run is one schedule placed in time and measured once: the Timeline and
// its Metrics, under the name claims, captions and charts call it by. It is
// the one shape of a run every layer passes around — claims and templates
// read it, a scene simulates a list of them, `compare` and `search` hold one
// each beside what they add (a prediction, a search's bound), and a chart
// refers to one (render::RunInput).
//
// Invariant: metrics == Measure(timeline, some MeasureOptions); nothing
// changes either afterwards. Metrics are exact integers; the ratios shown
// (bubble_ratio, ...) are computed where they are shown, from the metric
// table (metric_table.h).
#pragma once

#include <string>

#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct Run {
  std::string name;  // how claims refer to it (makespan(NAME)); a chart's label
  Timeline timeline;
  Metrics metrics;  // Measure(timeline)
};

// Measures `timeline` once and names the result.
Run Measured(std::string name, Timeline timeline, const MeasureOptions& options = {});

}  // namespace ppsim

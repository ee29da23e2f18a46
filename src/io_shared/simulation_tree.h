// The `simulate --json` object built as a tree (docs/formats.md): what search's
// JSON extends, and the reference the streamed writer (simulation_json.h) is
// tested against byte for byte. Internal to io and its tests.
#pragma once

#include <nlohmann/json.hpp>

#include "ppsim/metrics.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

// One object: schedule, P, M, v, placement, costs, comm, hold, the metrics of
// the table (AddMetricsJson), the activation time series and the ops.
nlohmann::json SimulationJson(const Timeline& timeline, const Metrics& metrics);

// Sets every metric of the table (metric_table.h) in `into` under its JSON
// keys, as simulate --json, compare --json and render --json write them: a
// whole value as an integer, a ratio as the nearest double, null if it does
// not fit 64 bits; a per-device list with one value for each of the P devices.
void AddMetricsJson(const Metrics& metrics, const Problem& problem, nlohmann::json& into);

}  // namespace ppsim::io

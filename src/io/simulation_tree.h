// The `simulate --json` object built as a tree (DESIGN §5): what search's
// JSON extends, and the reference the streamed writer (simulation_json.h) is
// tested against byte for byte. Internal to io and its tests.
#pragma once

#include <nlohmann/json.hpp>

#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

// One object: schedule, P, M, v, placement, costs, comm, hold, the metrics of
// DESIGN §3, the activation time series and the ops.
nlohmann::json SimulationJson(const Timeline& timeline, const Metrics& metrics);

}  // namespace ppsim::io

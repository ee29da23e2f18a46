// `simulate --json`, streamed: the object SimulationJson() builds (DESIGN §5)
// written as it goes, with the same bytes as dump() of that object plus
// "critical_path" and the byte figures (memory_bytes_json.h). Memory beyond
// the timeline is the writer's buffer and the activation series.
#pragma once

#include "ppsim/io/json_out.h"
#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

// Writes the object and a trailing newline. REQUIRES: `metrics` measured
// with series (MeasureOptions::series). Returns out.ok().
bool WriteSimulationJson(JsonOut& out, const Timeline& timeline, const Metrics& metrics, bool critical_path);

}  // namespace ppsim::io

// `simulate --json`, streamed (docs/formats.md): one object written as it goes —
// schedule, P, M, v, placement, costs, comm, hold, the metrics of docs/semantics.md,
// the activation time series, the ops, "critical_path" and the byte figures
// of a memory model. Its bytes equal dump() of the same object built as a
// tree (tests/io/streamed_json_test.cc). Memory beyond
// the timeline is the writer's buffer and the activation series.
#pragma once

#include "ppsim/io/json_out.h"
#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

// Writes the object and a trailing newline. REQUIRES: `metrics` measured
// with series (MeasureOptions::series). Returns out.ok().
bool WriteSimulationJson(JsonOut& out, const Timeline& timeline, const Metrics& metrics, bool critical_path);

// The "comms" object of that JSON (the link's parameters, docs/formats.md).
// REQUIRES: problem.comms.enabled().
void WriteCommsJson(JsonOut& out, const Problem& problem);

}  // namespace ppsim::io

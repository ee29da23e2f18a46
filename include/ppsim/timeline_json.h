// The `simulate --json` shape (DESIGN §5), written and read back. The ops
// list is `{device, stage, kind, microbatch, start, end}` (plus `overlap` for
// an overlapped pair); `validate` reads the same shape, or just its `ops`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ppsim/error.h"
#include "ppsim/metrics.h"
#include "ppsim/timeline.h"
#include "ppsim/validate.h"

namespace ppsim {

// One object: schedule, P, M, v, placement, costs, comm, hold, the metrics of
// DESIGN §3, the activation time series and the ops.
nlohmann::json SimulationJson(const Timeline& timeline, const Metrics& metrics);

// Reads a timeline: the object above, or a bare array of ops. `source` names
// the input in errors ("run.json:3:7: ..."). Fields missing from a bare ops
// list (P, M, stages, placement, costs) are inferred or left unknown.
Result<TimelineToCheck> ParseTimelineJson(std::string_view text, const std::string& source);

}  // namespace ppsim

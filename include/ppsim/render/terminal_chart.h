// The timeline drawn in a terminal: one row per device, one column per tick,
// cells "F3" / "B2" / "W1" where an op starts ("--" while it runs, "." when
// the device idles), and under the chart a row of activations held per tick.
#pragma once

#include <string>

#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim {

// Plain text, no colours. With two chunks per device the second chunk's ops
// are in lower case ("f3"); with more, "F3.2". REQUIRES: Measure(timeline)
// with series gave `metrics`.
std::string TerminalChart(const Timeline& timeline, const Metrics& metrics);

}  // namespace ppsim

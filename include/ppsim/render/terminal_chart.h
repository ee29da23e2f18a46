// The timeline drawn in a terminal: one row per device, one column per tick,
// cells "F3" / "B2" / "W1" where an op starts ("--" while it runs, "." when
// the device idles), and under the chart a row of activations held per tick.
#pragma once

#include <string>

#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct TerminalChartOptions {
  bool color = false;       // ANSI colours (forward, backward, weight-grad)
  bool show_chunk = true;   // v = 2: second chunk in lower case ("f3"); v > 2: "F3.2"
};

std::string TerminalChart(const Timeline& timeline, const Metrics& metrics,
                          const TerminalChartOptions& options = {});

}  // namespace ppsim

// What `ppsim simulate` prints without --json: a summary of one run (its
// problem, cost basis, makespan, bubble, peaks; bytes when a memory model is
// given) and, on request, one critical path written out.
#pragma once

#include <string>

#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

// "gpipe  P=4 M=6 v=1  comm=0\n...makespan 18  busy 48  idle 24 ...\npeak
// activations (held): 23 cluster-wide; per device 6 6 6 5\n". REQUIRES:
// Measure(timeline) gave `metrics`. Each line wrapped between its phrases
// (text_wrap.h) to `columns` when > 0.
std::string SimulationSummary(const Timeline& timeline, const Metrics& metrics, int columns = 0);

// "critical path (18 ops, tick 0 to 18): F0@s0(d0 0-1) -> ... -(+1)-> ...\n":
// one chain of ops from tick 0 to the makespan (critical_path.h); "-(+c)->"
// marks a gap of c ticks (comm) between two of them.
std::string CriticalPathText(const Timeline& timeline);

}  // namespace ppsim::io

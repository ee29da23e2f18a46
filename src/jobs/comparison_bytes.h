// The bytes side of `ppsim compare`: with a memory model (a cost file's or a
// model file's bytes), each run's peak bytes per device, and what each run
// trades against the first — the memory it saves and the time it pays, as
// recompute does. Every figure is read from the runs (Metrics::peak_bytes_per_device).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/jobs/comparison.h"

namespace ppsim::jobs {

// True iff the runs carry bytes (Metrics::bytes: a memory model).
bool ComparesBytes(const std::vector<ComparedRun>& runs);
// Each device's peak bytes (static + activations, the problem's hold).
std::vector<std::int64_t> PeakBytes(const ComparedRun& run);
// One line per run after the first: "against A: B pays 11 ticks (makespan
// 44 against 33) and saves 3000 bytes on its fullest device (1000 against
// 4000); per device 2700 1800 900 -1000", negative figures meaning the
// opposite. "" without bytes or with one run.
std::string TradeLines(const std::vector<ComparedRun>& runs);

}  // namespace ppsim::jobs

// Device memory in bytes over a placed timeline: each device's static bytes,
// its activation bytes over time, its peak, and where a per-device limit is
// first exceeded. The model (what a stage holds) is MemoryModel, part of the
// Problem (memory_model.h).
#pragma once

#include <cstdint>
#include <vector>

#include "ppsim/memory.h"
#include "ppsim/memory_model.h"
#include "ppsim/timeline.h"

namespace ppsim {


struct MemoryBytes {
  std::vector<std::int64_t> static_per_device;  // parameters + gradients + optimizer state
  std::vector<StepSeries> activations_per_device;
  std::vector<std::int64_t> peak_per_device;    // static + highest activation bytes
  // The limit: the first tick at which some device holds more than it (the
  // lowest such device at that tick), and what it holds then.
  bool exceeded = false;
  Tick first_tick = -1;
  int first_device = -1;
  std::int64_t bytes_at_first = 0;
};

// REQUIRES: ValidateMemoryModel(timeline.problem.memory, stages) is kOk.
MemoryBytes MeasureMemoryBytes(const Timeline& timeline);
// The same with the activations counted over `hold`'s interval instead of the problem's.
MemoryBytes MeasureMemoryBytes(const Timeline& timeline, HoldMode hold);

}  // namespace ppsim

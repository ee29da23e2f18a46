// Activation memory over time. With HoldMode::kHeld, microbatch m's
// activations for stage s count on [end F(m,s), start B(m,s)); with kResident
// on [start F, end B) — end W when the backward is split (a full backward
// frees everything at its own end). A StepSeries is the
// exact piecewise-constant count: value v from tick t until the next step.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct StepSeries {
  std::vector<std::pair<Tick, std::int64_t>> steps;  // (tick, value from tick on), ticks increasing
  std::int64_t At(Tick t) const;                     // 0 before the first step
  std::int64_t Peak() const;
};

struct Activations {
  std::vector<StepSeries> per_device;
  StepSeries cluster;  // the sum over devices
  std::vector<std::int64_t> peak_per_device;
  std::int64_t peak = 0;  // cluster-wide peak (of the sum, not the sum of peaks)
};

// Interval during which (m, s)'s activations are counted, [from, to).
// With recompute (recompute.h), a stage with R holds its full set from R's
// start: the interval returned then starts there.
struct HoldInterval {
  Tick from = 0;
  Tick to = 0;
};
HoldInterval HeldInterval(const Timeline& t, HoldMode hold, int microbatch, int stage);

// The most any one device holds at each tick: the pointwise maximum of
// `per_device` (a series' peak is then the fullest device's peak).
StepSeries FullestDevice(const std::vector<StepSeries>& per_device);
// Their sum at each tick.
StepSeries SumOf(const std::vector<StepSeries>& series);

// The peaks always; the step series (per_device, cluster) only when `series`
// (otherwise they stay empty). O(ops) with no sort; see memory.cc.
Activations MeasureActivations(const Timeline& timeline, HoldMode hold, bool series = true);

}  // namespace ppsim

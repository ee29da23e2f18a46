// Published closed forms (tests/data/README.md), for `compare` to
// print beside what was measured. A form is given only inside its
// assumptions: uniform per-kind costs, no communication latency, and the
// schedule's own condition (e.g. P | M for interleaved). Outside them the
// fields are empty: ppsim does not extrapolate a formula. Each schedule's
// forms live in its own file (GeneratorInfo::predict, generators.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/problem.h"
#include "ppsim/rational.h"

namespace ppsim {

struct Prediction {
  std::optional<Tick> makespan;
  std::string makespan_formula;
  std::optional<Rational> bubble_ratio;  // idle / busy
  std::string bubble_formula;
  std::optional<std::vector<std::int64_t>> peak_per_device;  // in the problem's HoldMode
  std::string peak_formula;
  // The fullest device's peak, where a paper gives only that (V-Half, V-Min:
  // chunk sets, allocator view).
  std::optional<std::int64_t> peak_max;
  std::string peak_max_formula;
  // The zoo's bubbles. Zero Bubble (1f1b, zb-h1, zb-h2): the largest idle
  // time inside one device's span (first start to last end). DualPipe
  // (dualpipe, dualpipev): the largest idle time of one device over the
  // makespan. Given only inside the ranges docs/schedules.md states.
  std::optional<Tick> span_idle;
  std::string span_idle_formula;
  std::optional<Tick> device_idle;
  std::string device_idle_formula;
};

// One whole-run form of a Prediction, named as the metric table names the
// metric it predicts (metric_table.h): "makespan", "bubble_ratio",
// "max_span_idle", "max_device_idle".
struct PredictedMetric {
  const char* metric;
  std::string formula;
  Rational value;
};

// The whole-run forms `prediction` gives, each under its metric's name, in
// the order above: the one place a Prediction's fields meet the metric table.
std::vector<PredictedMetric> PredictedMetrics(const Prediction& prediction);

// `schedule`'s closed forms at `problem` as the generator adjusted it (the
// Timeline's problem); all fields empty when its costs are not uniform per
// kind, when there is latency, or when the schedule is unknown or has none.
Prediction Predict(std::string_view schedule, const Problem& problem);

}  // namespace ppsim

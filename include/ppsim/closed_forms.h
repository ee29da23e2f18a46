// Published closed forms (tests/data/README.md), for `compare` to
// print beside what was measured. A form is given only inside its
// assumptions: uniform per-kind costs, no communication latency, and the
// schedule's own condition (e.g. P | M for interleaved). Outside them the
// Prediction is empty: ppsim does not extrapolate a formula. Each schedule's
// forms live in its own file (GeneratorInfo::predict, generators.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/metric_table.h"
#include "ppsim/problem.h"
#include "ppsim/rational.h"

namespace ppsim {

// One whole-run closed form, keyed by the metric it predicts: the metric
// table's row (metric_table.h), whose value of a run is what it is checked
// against.
struct PredictedMetric {
  const MetricInfo* metric;  // never nullptr
  std::string formula;       // "(M+P-1)(F+B+W)"
  Rational value;
};

struct Prediction {
  // The whole-run forms, at most one a metric, in the order given. The zoo's
  // bubbles among them: Zero Bubble's (1f1b, zb-h1, zb-h2) as max_span_idle,
  // DualPipe's (dualpipe, dualpipev) as max_device_idle, given only inside
  // the ranges docs/schedules.md states.
  std::vector<PredictedMetric> forms;
  // Each device's peak in chunk sets (peak_sets), in the problem's HoldMode.
  std::optional<std::vector<std::int64_t>> peak_per_device;
  std::string peak_formula;
  // The fullest device's peak, where a paper gives only that (V-Half, V-Min:
  // chunk sets, allocator view).
  std::optional<std::int64_t> peak_max;
  std::string peak_max_formula;

  // Adds the form of the metric the table names `metric`, when its value
  // fits exact arithmetic (nullopt: no form).
  // REQUIRES: FindMetric(metric) != nullptr, and no form of it yet.
  void Add(std::string_view metric, std::string formula, std::optional<Rational> value);
  // The form of the metric named `metric`, or nullptr.
  const PredictedMetric* Find(std::string_view metric) const;
};

// `schedule`'s closed forms at `problem` as the generator adjusted it (the
// Timeline's problem); all fields empty when its costs are not uniform per
// kind, when there is latency, or when the schedule is unknown or has none.
Prediction Predict(std::string_view schedule, const Problem& problem);

}  // namespace ppsim

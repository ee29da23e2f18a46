// Published closed forms (../shared/conformance/README.md), for `compare` to
// print beside what was measured. A form is given only inside its
// assumptions: uniform per-kind costs, no communication latency, and the
// schedule's own condition (e.g. P | M for interleaved). Outside them the
// fields are empty: ppsim does not extrapolate a formula.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsim/problem.h"

namespace ppsim {

// An exact ratio num/den, den > 0, reduced.
struct Ratio {
  std::int64_t num = 0;
  std::int64_t den = 1;
  static Ratio Of(std::int64_t num, std::int64_t den);
  std::string ToString() const;  // "1/2", "3"
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  friend bool operator==(const Ratio&, const Ratio&) = default;
};

struct Prediction {
  std::optional<Tick> makespan;
  std::string makespan_formula;
  std::optional<Ratio> bubble_ratio;  // idle / busy
  std::string bubble_formula;
  std::optional<std::vector<std::int64_t>> peak_per_device;  // in the problem's HoldMode
  std::string peak_formula;
};

// `problem` as the generator adjusted it (the Timeline's problem).
Prediction Predict(const std::string& schedule, const Problem& problem);

}  // namespace ppsim

// The metrics a run is judged by, in one table (as ninja's kTools[]): each
// with its name — how a claim reads it (makespan(X)), how JSON and `compare`
// label it — a one-line doc, and how to read it from a run, exactly. The
// claim language knows the metrics this table lists; docs/claims.md's list is
// generated from it (tests/core/metric_table_test.cc fails when it is stale).
//
// One way to print a metric's value (Rational::ToText): a whole number as
// itself ("18"); any other as the exact reduced fraction and its value to four
// decimals, "1/3 (0.3333)". Every text output prints it so; JSON keeps a
// machine number (a double for the ratios; docs/formats.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/metrics.h"
#include "ppsim/problem.h"
#include "ppsim/rational.h"

namespace ppsim {

struct MetricInfo {
  const char* name;  // "makespan": the claim's function, the JSON key
  const char* doc;   // one line, for docs/claims.md
  bool per_device;   // also takes a device: peak(X, d)
  // The value of a run (its metrics and its problem, as simulated) for the
  // whole run (device = -1) or one device (REQUIRES: per_device, 0 <= device
  // < P). nullopt iff it does not fit exact 64-bit arithmetic.
  std::optional<Rational> (*value)(const Metrics& metrics, const Problem& problem, int device);
};

// Every metric, in the order docs list them.
const std::vector<MetricInfo>& MetricTable();
// The row named `name`, or nullptr.
const MetricInfo* FindMetric(std::string_view name);
// "makespan, busy, idle, ...": every name, for messages.
std::string MetricNames();
// docs/claims.md's list: one Markdown bullet a metric.
std::string MetricTableMarkdown();

}  // namespace ppsim

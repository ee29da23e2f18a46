// The metrics a run is judged by, in one table (as ninja's kTools[]): each
// with its name — how a claim reads it (makespan(X)) and how `compare`
// labels it — its JSON key, a one-line doc, and how to read it from a run,
// exactly. The claim language, `compare` (its table and --json), `simulate
// --json` and `render --json`'s runs list the metrics this table lists, so a
// row added here is a metric everywhere; docs/claims.md's list is generated
// from it and docs/semantics.md's is checked against it
// (tests/core/metric_table_test.cc fails when either is stale).
//
// One way to print a metric's value (Rational::ToText): a whole number as
// itself ("18"); any other as the exact reduced fraction and its value to four
// decimals, "1/3 (0.3333)". Every text output prints it so; JSON keeps a
// machine number: an integer, or for a ratio the nearest double
// (docs/formats.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ppsim/metrics.h"
#include "ppsim/problem.h"
#include "ppsim/rational.h"

namespace ppsim {

// How JSON writes a metric's value.
enum class JsonForm : std::uint8_t {
  kInteger,  // the value is always whole: written as an integer (18)
  kDouble,   // written as the nearest double (0.5, 0.3333333333333333, 14.0)
};

// Which summaries show a metric: a bitmask of these, the table's
// shown_in column. Every summary lists the metrics it shows in the table's
// order; --json, `compare` and claims list every metric whatever the column.
enum ShownIn : unsigned {
  kSimulateLine = 1,     // `ppsim simulate`'s summary: its line of whole-run values
  kSimulateComms = 2,    // its communication line, with each device's value (runs that model communication)
  kHtmlPage = 4,         // an HTML page's numbers table, a column each
  kHtmlPageCluster = 8,  // its columns after those, when the gauge shows the cluster
  kNotebook = 16,        // Python's table in a notebook (_repr_html_), a per-device metric with its devices' row
};

struct MetricInfo {
  const char* name;  // "makespan": the claim's function, `compare`'s row
  const char* doc;   // one line, for docs/claims.md
  bool per_device;   // also takes a device: peak(X, d)
  // The JSON key of the whole run's value ("peak_activations" for peak_sets),
  // and for a per-device metric the key of its list, one value a device
  // ("peak_activations_per_device"); nullptr: not written.
  const char* json_key;
  const char* json_per_device_key;
  JsonForm json_form;
  unsigned shown_in;    // which summaries show it (ShownIn bits; 0: none)
  const char* heading;  // a summary table's column heading in words ("bubble ratio"); nullptr: the name
  // The value of a run (its metrics and its problem, as simulated) for the
  // whole run (device = -1) or one device (REQUIRES: per_device, 0 <= device
  // < P). nullopt iff it does not fit exact 64-bit arithmetic.
  std::optional<Rational> (*value)(const Metrics& metrics, const Problem& problem, int device);
};

// A metric's value as JSON writes it (docs/formats.md): an integer for a
// kInteger metric, the nearest double for a kDouble one, monostate (null)
// when it does not fit 64-bit arithmetic. Every JSON writer and Python read it.
using JsonNumber = std::variant<std::monostate, std::int64_t, double>;
JsonNumber MetricJsonValue(const MetricInfo& metric, const Metrics& metrics, const Problem& problem, int device);

// Every metric, in the order docs list them.
const std::vector<MetricInfo>& MetricTable();
// False for the communication metrics (comm_time, exposed_comm,
// peak_send_bytes, link_utilisation) of a run that does not model
// communication: outputs leave them out, so a run without it prints as
// before. Claims read them all (0 without communication). Likewise
// recompute_time for a run without recompute, and peak_bytes for a run
// without a memory model in bytes.
bool MetricApplies(const MetricInfo& metric, const Metrics& metrics);
// The row named `name`, or nullptr.
const MetricInfo* FindMetric(std::string_view name);
// The metrics `summary` (one ShownIn bit) shows, in the table's order.
std::vector<const MetricInfo*> MetricsShownIn(ShownIn summary);
// A metric's column heading: its heading, or its name.
const char* MetricHeading(const MetricInfo& metric);
// "makespan, busy, idle, ...": every name, for messages.
std::string MetricNames();
// docs/claims.md's list: one Markdown bullet a metric.
std::string MetricTableMarkdown();
// docs/formats.md's table of the JSON keys: key, metric, how it is written.
std::string MetricJsonMarkdown();

}  // namespace ppsim

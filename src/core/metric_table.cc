#include "ppsim/metric_table.h"

#include <algorithm>

#include "ppsim/cost_scale.h"

namespace ppsim {
namespace {

std::optional<Rational> Whole(std::int64_t v) { return Rational(v); }
// Ratios of an empty run are 0, as Measure() has them.
std::optional<Rational> Quotient(std::int64_t num, std::int64_t den) {
  return den > 0 ? Rational::Of(num, den) : Rational(0);
}
// The device whose span (first start to last end) is the longest, the
// busiest of those tied: the Zero Bubble paper's rate is read on it.
int WidestDevice(const Metrics& m) {
  int widest = 0;
  for (int d = 1; d < static_cast<int>(m.span_per_device.size()); ++d)
    if (m.span_per_device[d] > m.span_per_device[widest] ||
        (m.span_per_device[d] == m.span_per_device[widest] && m.busy_per_device[d] > m.busy_per_device[widest]))
      widest = d;
  return widest;
}
std::int64_t PerDeviceOrSum(const std::vector<Tick>& v, int device) {
  if (device >= 0) return v.empty() ? 0 : v.at(device);
  std::int64_t sum = 0;
  for (Tick x : v) sum += x;
  return sum;
}
std::int64_t Sets(const Metrics& m, int device) {
  return device < 0 ? m.activations.peak : m.activations.peak_per_device[device];
}

// The table's order is the docs' (docs/semantics.md) and `compare`'s rows.
const std::vector<MetricInfo>& Table() {
  using enum JsonForm;
  static const std::vector<MetricInfo> table = {
      {"makespan", "last end − 0, in ticks", false, "makespan", nullptr, kInteger,
       kSimulateLine | kHtmlPage | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) { return Whole(m.makespan); }},
      {"busy", "sum of op durations (an overlapped pair counts once)", false, "busy", nullptr, kInteger,
       kSimulateLine | kHtmlPage | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) { return Whole(m.busy); }},
      {"idle", "P·makespan − busy: the bubble in device-ticks", false, "idle", nullptr, kInteger,
       kSimulateLine | kHtmlPage | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) { return Whole(m.idle); }},
      {"bubble_ratio", "idle / busy: (P−1)/M for GPipe and 1F1B at unit cost", false, "bubble_ratio", nullptr, kDouble,
       kSimulateLine | kHtmlPage | kNotebook, "bubble ratio",
       [](const Metrics& m, const Problem&, int) { return Quotient(m.idle, m.busy); }},
      {"bubble_fraction", "idle / (P·makespan): the share of device-ticks idle", false, "bubble_fraction", nullptr,
       kDouble, kSimulateLine | kNotebook, nullptr,
       [](const Metrics& m, const Problem& p, int) {
         const auto slots = Rational(p.P).Mul(m.makespan);
         return slots ? Quotient(m.idle, slots->num()) : std::nullopt;
       }},
      {"bubble_rate_span",
       "the Zero Bubble paper's rate: (the longest device span − that device's busy time) / that span", false,
       "bubble_rate_span", nullptr, kDouble, kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) {
         if (m.span_per_device.empty()) return Whole(0);
         const int d = WidestDevice(m);
         return Quotient(m.span_per_device[d] - m.busy_per_device[d], m.span_per_device[d]);
       }},
      {"max_span_idle", "the largest idle time inside one device's span: the Zero Bubble paper's bubble", false,
       "max_span_idle", nullptr, kInteger, kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) { return Whole(m.max_span_idle); }},
      {"max_device_idle", "the largest idle time of one device over the makespan: DualPipe's bubble", false,
       "max_device_idle", nullptr, kInteger, kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) { return Whole(m.max_device_idle); }},
      {"transfers", "dependencies that cross devices", false, "transfers", nullptr, kInteger, kSimulateLine | kNotebook,
       nullptr, [](const Metrics& m, const Problem&, int) { return Whole(m.transfers); }},
      {"peak", "activations held at the peak, in stage-sets (a chunk's set counts 1/v); peak(X, d): device d's", true,
       "peak_stage_sets", nullptr, kDouble, kHtmlPageCluster | kNotebook, "all devices (stage-sets)",
       [](const Metrics& m, const Problem& p, int d) { return Rational::Of(Sets(m, d), ChunksPerStage(p)); }},
      {"peak_sets", "the same peak as a count of chunk sets, as JSON's peak_activations", true, "peak_activations",
       "peak_activations_per_device", kInteger, 0, nullptr,
       [](const Metrics& m, const Problem&, int d) { return Whole(Sets(m, d)); }},
      {"device_peak",
       "what must fit on one device: the fullest device's peak in stage-sets, counted the allocator's way (from "
       "the start of F to the end of its B or W, whatever hold says); device_peak(X, d): device d's",
       true, "device_peak_stage_sets", nullptr, kDouble, kHtmlPage | kNotebook, "fullest device (stage-sets)",
       [](const Metrics& m, const Problem& p, int d) -> std::optional<Rational> {
         std::int64_t most = 0;
         if (d >= 0)
           most = m.resident_peak_per_device.at(d);
         else
           for (std::int64_t v : m.resident_peak_per_device) most = std::max(most, v);
         return Rational::Of(most, ChunksPerStage(p));
       }},
      // Communication as ops (docs/comms.md): written and compared only for
      // runs that model it (MetricApplies); 0 for a run that does not.
      {"comm_time",
       "with communication modelled: the transfers' durations, each once; comm_time(X, d): those device d sends or "
       "receives",
       true, "comm_time", "comm_time_per_device", kInteger, kSimulateComms | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int d) {
         return Whole(d < 0 ? m.comm_time : m.comm_time_per_device.empty() ? 0 : m.comm_time_per_device.at(d));
       }},
      {"exposed_comm",
       "with communication modelled: ticks the compute streams wait on a transfer or collective after its producer "
       "ended, summed; exposed_comm(X, d): device d's",
       true, "exposed_comm", "exposed_comm_per_device", kInteger, kSimulateComms | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int d) { return Whole(PerDeviceOrSum(m.exposed_comm_per_device, d)); }},
      {"peak_send_bytes",
       "with communication modelled: the most bytes of send buffers one device holds at once; peak_send_bytes(X, d): "
       "device d's",
       true, "peak_send_bytes", "peak_send_bytes_per_device", kInteger, kSimulateComms | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int d) -> std::optional<Rational> {
         std::int64_t most = 0;
         if (d >= 0) return Whole(m.peak_send_bytes_per_device.empty() ? 0 : m.peak_send_bytes_per_device.at(d));
         for (std::int64_t v : m.peak_send_bytes_per_device) most = std::max(most, v);
         return Whole(most);
       }},
      {"link_utilisation", "with communication modelled: the busiest directed link's busy time / makespan", false,
       "link_utilisation", nullptr, kDouble, kSimulateComms | kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int) { return Quotient(m.busiest_link, m.makespan); }},
      // Recompute as an op (recompute.h): written and compared only for runs
      // with recompute (MetricApplies); 0 for a run without.
      {"recompute_time",
       "with recompute: the R ops' durations, summed (part of busy); recompute_time(X, d): device d's", true,
       "recompute_time", "recompute_time_per_device", kInteger, kNotebook, nullptr,
       [](const Metrics& m, const Problem&, int d) { return Whole(PerDeviceOrSum(m.recompute_time_per_device, d)); }},
      // Bytes (memory_model.h): compared only for runs with a memory model
      // (MetricApplies); the JSON writes them as peak_bytes_per_device
      // beside the rest of the bytes (docs/formats.md), not from here.
      {"peak_bytes",
       "with a memory model in bytes: the fullest device's peak, static + activations (as hold counts them); "
       "peak_bytes(X, d): device d's",
       true, nullptr, nullptr, kInteger, 0, nullptr,
       [](const Metrics& m, const Problem&, int d) -> std::optional<Rational> {
         if (m.peak_bytes_per_device.empty()) return Whole(0);
         if (d >= 0) return Whole(m.peak_bytes_per_device.at(d));
         return Whole(*std::max_element(m.peak_bytes_per_device.begin(), m.peak_bytes_per_device.end()));
       }},
  };
  return table;
}

}  // namespace

const std::vector<MetricInfo>& MetricTable() { return Table(); }

bool MetricApplies(const MetricInfo& metric, const Metrics& metrics) {
  static const std::string_view kComms[] = {"comm_time", "exposed_comm", "peak_send_bytes", "link_utilisation"};
  if (std::string_view(metric.name) == "recompute_time") return metrics.recompute;
  if (std::string_view(metric.name) == "peak_bytes") return metrics.bytes;
  if (metrics.comms) return true;
  for (std::string_view name : kComms)
    if (name == metric.name) return false;
  return true;
}

JsonNumber MetricJsonValue(const MetricInfo& metric, const Metrics& m, const Problem& p, int device) {
  const std::optional<Rational> v = metric.value(m, p, device);
  if (!v) return std::monostate{};
  if (metric.json_form == JsonForm::kInteger) return v->num();  // the table's integer metrics are whole
  return v->ToDouble();
}

const MetricInfo* FindMetric(std::string_view name) {
  for (const MetricInfo& m : Table())
    if (name == m.name) return &m;
  return nullptr;
}

std::vector<const MetricInfo*> MetricsShownIn(ShownIn summary) {
  std::vector<const MetricInfo*> out;
  for (const MetricInfo& m : Table())
    if ((m.shown_in & summary) != 0) out.push_back(&m);
  return out;
}

const char* MetricHeading(const MetricInfo& metric) { return metric.heading != nullptr ? metric.heading : metric.name; }

std::string MetricNames() {
  std::string s;
  for (const MetricInfo& m : Table()) s += (s.empty() ? "" : ", ") + std::string(m.name);
  return s;
}

std::string MetricTableMarkdown() {
  std::string s;
  for (const MetricInfo& m : Table())
    s += "  - `" + std::string(m.name) + (m.per_device ? "(X)`, `" + std::string(m.name) + "(X, d)`" : "(X)`") + ": " +
         m.doc + "\n";
  return s;
}

std::string MetricJsonMarkdown() {
  std::string s = "| key | metric | written as |\n| --- | --- | --- |\n";
  for (const MetricInfo& m : Table()) {
    const std::string form = m.json_form == JsonForm::kInteger ? "integer" : "double";
    if (m.json_key != nullptr)
      s += "| `" + std::string(m.json_key) + "` | `" + m.name + "` | " + (form == "integer" ? "an " : "a ") + form + " |\n";
    if (m.json_per_device_key != nullptr)
      s += "| `" + std::string(m.json_per_device_key) + "` | `" + m.name + "`, each device's | a list of " + form +
           "s |\n";
  }
  return s;
}

}  // namespace ppsim

#include "ppsim/io/simulation_text.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "ppsim/cost_scale.h"
#include "ppsim/critical_path.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/metric_table.h"
#include "ppsim/rational.h"
#include "ppsim/slices.h"
#include "ppsim/text_wrap.h"

namespace ppsim::io {

std::string CriticalPathText(const Timeline& t) {
  const std::vector<CriticalStep> path = CriticalPath(t);
  std::string s = "critical path (" + std::to_string(path.size()) + " ops, tick 0 to " + std::to_string(t.makespan) + "):";
  for (size_t k = 0; k < path.size(); ++k) {
    const Op op = t.schedule.space.At(path[k].op);
    const Tick start = t.Start(path[k].op);
    const Tick gap = k == 0 ? 0 : start - t.end[path[k - 1].op];
    s += k == 0 ? " " : gap > 0 ? " -(+" + std::to_string(gap) + ")-> " : " -> ";
    s += SliceOpName(t.schedule.space, t.problem.slices, path[k].op) + "(d" + std::to_string(t.problem.DeviceOf(op.stage)) + " " + std::to_string(start) + "-" +
         std::to_string(t.end[path[k].op]) + ")";
  }
  return s + "\n";
}

namespace {

// The metrics `summary` shows (the metric table's shown_in column) that
// apply to the run, on one line two spaces apart, each printed the one way
// (metric_table.h), a per-device one with its devices' values:
// "comm_time 6 (per device 2 4 4 2)".
std::string MetricLine(const Timeline& t, const Metrics& m, ShownIn summary) {
  std::string s;
  for (const MetricInfo* metric : MetricsShownIn(summary)) {
    if (!MetricApplies(*metric, m)) continue;
    auto value = [&](int d) { return metric->value(m, t.problem, d)->ToText(); };
    s += (s.empty() ? "" : "  ") + std::string(metric->name) + " " + value(-1);
    if (!metric->per_device) continue;
    s += " (per device";
    for (int d = 0; d < t.problem.P; ++d) s += " " + value(d);
    s += ")";
  }
  return s + "\n";
}

// With communication as ops (docs/comms.md): the rule, the link, and what
// it cost.
std::string CommLines(const Timeline& t, const Metrics& m) {
  const CommModel& c = t.problem.comms;
  return "comms " + std::string(CommOrderName(c.order)) + ": link latency " + std::to_string(c.latency) + " ticks, " +
         (c.bandwidth > 0 ? std::to_string(c.bandwidth) + " bytes a unit" : "no size term") + ", " +
         (c.concurrency == 0 ? std::string("any number") : std::to_string(c.concurrency)) +
         " RECV in flight a device\n" + MetricLine(t, m, kSimulateComms);
}

// The summary's lines, unwrapped.
std::string SummaryLines(const Timeline& t, const Metrics& m) {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof line, "%s  P=%d M=%d v=%d  comm=%lld\n", t.schedule.name.c_str(), t.problem.P,
                t.problem.M, t.problem.v, static_cast<long long>(t.problem.comm));
  s += line;
  s += CostBasisText(t.problem) + "; " + TickScaleText(t.problem) + "\n";  // which units the ticks are in
  s += MetricLine(t, m, kSimulateLine);
  s += "peak activations (" + HoldModeName(t.problem.hold) + "): " + std::to_string(m.activations.peak) +
       " cluster-wide; per device";
  for (auto v : m.activations.peak_per_device) s += " " + std::to_string(v);
  s += "\n";
  if (t.problem.memory.enabled()) {
    const MemoryBytes bytes = MeasureMemoryBytes(t);
    s += "peak bytes per device";
    for (auto v : bytes.peak_per_device) s += " " + std::to_string(v);
    s += "\n";
    if (bytes.exceeded)
      s += "memory limit " + std::to_string(t.problem.memory.limit) + " exceeded first at tick " +
           std::to_string(bytes.first_tick) + " on device " + std::to_string(bytes.first_device) + " (" +
           std::to_string(bytes.bytes_at_first) + " bytes)\n";
  }
  if (m.comms) s += CommLines(t, m);
  if (m.recompute) {  // recompute as an op (recompute.h)
    const Problem& p = t.problem;
    const Rational inputs = Rational::Of(p.recompute_inputs_num, p.recompute_inputs_den).value_or(Rational());
    s += "recompute " + RecomputeName(p.recompute) + " (R " + (p.recompute_at == RecomputeAt::kEarly ? "early" : "before B") +
         ", inputs held " + (p.memory.input_bytes.empty() ? inputs.ToText() + " of a stage's bytes" : "as the model's") +
         "): recompute_time " + std::to_string(m.recompute_time) + " (per device";
    for (Tick x : m.recompute_time_per_device) s += " " + std::to_string(x);
    s += ")\n";
  }
  return s;
}

}  // namespace

std::string SimulationSummary(const Timeline& t, const Metrics& m, int columns) {
  const std::string s = SummaryLines(t, m);
  if (columns <= 0) return s;
  std::string out;
  for (size_t at = 0; at < s.size();) {
    const size_t end = std::min(s.find('\n', at), s.size());
    out += WrapPhrases(s.substr(at, end - at), static_cast<size_t>(columns));
    at = end + 1;
  }
  return out;
}

}  // namespace ppsim::io

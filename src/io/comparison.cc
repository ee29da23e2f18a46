#include "ppsim/io/comparison.h"

#include <algorithm>

#include <cstdio>
#include <sstream>

#include "io/json_dump.h"
#include "ppsim/cost_scale.h"
#include "ppsim/generators.h"
#include "ppsim/metric_table.h"
#include "ppsim/rational.h"
#include "ppsim/simulate.h"

namespace ppsim::io {
namespace {

using Row = ComparedRun;

std::string Join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

std::string Check(bool ok) { return ok ? "✓" : "✗"; }

// The cluster-wide peak in whole-stage sets: a chunk's set counts 1/v.
Rational PeakStageSets(const Row& r) {
  return Rational::Of(r.metrics.peak_activations, ChunksPerStage(r.timeline.problem)).value_or(Rational(0));
}

}  // namespace

std::string ComparisonText(const std::vector<ComparedRun>& rows) {
  std::ostringstream out;
  const Problem& p = rows[0].timeline.problem;
  out << "P=" << p.P << " M=" << p.M << " comm=" << p.comm << "  activations: " << HoldModeName(p.hold) << "\n";
  out << (p.cost_basis == CostBasis::kStage
              ? "costs per stage of the model on one device (a run with v chunks costs 1/v per chunk)"
              : "costs per chunk, as given (--cost-per chunk)")
      << "; " << TickScaleText(p) << "\n\n";
  auto cell = [](std::string s) {
    constexpr size_t kWidth = 38;
    size_t visible = 0;  // "✓"/"✗" are three bytes, one column
    for (unsigned char c : s) visible += (c & 0xC0) != 0x80;
    if (visible < kWidth) s.append(kWidth - visible, ' ');
    return s;
  };
  out << cell("");
  for (const Row& r : rows) out << cell(r.timeline.schedule.name + (r.timeline.problem.v > 1 ? " v=" + std::to_string(r.timeline.problem.v) : ""));
  out << "\n";
  auto line = [&](const char* name, auto measured, auto predicted) {
    out << cell(name);
    for (const Row& r : rows) out << cell(measured(r) + predicted(r));
    out << "\n";
  };
  auto none = [](const Row&) { return std::string(); };
  line("makespan", [](const Row& r) { return std::to_string(r.metrics.makespan); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.makespan) return std::string();
         return "  " + pr.makespan_formula + " = " + std::to_string(*pr.makespan) + " " +
                Check(*pr.makespan == r.metrics.makespan);
       });
  line("busy", [](const Row& r) { return std::to_string(r.metrics.busy); }, none);
  line("idle (bubble)", [](const Row& r) { return IdleSlotsText(r.metrics, r.timeline.problem.P); }, none);
  // A metric of the table (metric_table.h), printed the one way.
  auto metric = [](const char* name) {
    return [name](const Row& r) { return FindMetric(name)->value(r.metrics, r.timeline.problem, -1)->ToText(); };
  };
  line("bubble_ratio idle/busy", metric("bubble_ratio"), [](const Row& r) {
    const auto& pr = r.prediction;
    if (!pr.bubble_ratio) return std::string();
    return "  " + pr.bubble_formula + " = " + pr.bubble_ratio->ToString() + " " +  // exact; the decimal is beside
           Check(pr.bubble_ratio == FindMetric("bubble_ratio")->value(r.metrics, r.timeline.problem, -1));
  });
  line("bubble_fraction", metric("bubble_fraction"), none);
  line("transfers", [](const Row& r) { return std::to_string(r.metrics.transfers); }, none);
  line("max idle in a device span", [](const Row& r) { return std::to_string(r.metrics.max_span_idle); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.span_idle) return std::string();
         return "  " + pr.span_idle_formula + " = " + std::to_string(*pr.span_idle) + " " +
                Check(*pr.span_idle == r.metrics.max_span_idle);
       });
  line("max idle of a device", [](const Row& r) { return std::to_string(r.metrics.max_device_idle); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.device_idle) return std::string();
         return "  " + pr.device_idle_formula + " = " + std::to_string(*pr.device_idle) + " " +
                Check(*pr.device_idle == r.metrics.max_device_idle);
       });
  line("peak activations (stage-sets)", [](const Row& r) { return PeakStageSets(r).ToDisplay(); }, none);
  line("peak sets held (chunk sets)", [](const Row& r) { return std::to_string(r.metrics.peak_activations); }, none);
  line("peak per device", [](const Row& r) { return Join(r.metrics.peak_activations_per_device); }, none);
  line("  predicted per device",
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.peak_per_device && pr.peak_max) {
           const auto& got = r.metrics.peak_activations_per_device;
           const std::int64_t most = got.empty() ? 0 : *std::max_element(got.begin(), got.end());
           return "max " + pr.peak_max_formula + " = " + std::to_string(*pr.peak_max) + " " +
                  Check(*pr.peak_max == most);
         }
         if (!pr.peak_per_device) return std::string("-");
         return Join(*pr.peak_per_device) + " " + Check(*pr.peak_per_device == r.metrics.peak_activations_per_device);
       },
       none);
  out << "\n";
  bool same_makespan = true, same_idle = true, same_busy = true;
  for (const Row& r : rows) {
    same_busy = same_busy && r.metrics.busy == rows[0].metrics.busy;
    same_makespan = same_makespan && r.metrics.makespan == rows[0].metrics.makespan;
    same_idle = same_idle && r.metrics.idle == rows[0].metrics.idle;
  }
  out << "makespans " << (same_makespan ? "equal" : "differ") << ":";
  for (const Row& r : rows) out << " " << r.timeline.schedule.name << "=" << r.metrics.makespan;
  out << "\nbusy (work) " << (same_busy ? "equal" : "differs") << ":";
  for (const Row& r : rows) out << " " << r.timeline.schedule.name << "=" << r.metrics.busy;
  out << "\nbubbles " << (same_idle ? "equal" : "differ") << ":";
  for (size_t i = 0; i < rows.size(); ++i)
    out << (i == 0 ? " " : " · ") << rows[i].timeline.schedule.name << " "
        << IdleSlotsText(rows[i].metrics, rows[i].timeline.problem.P);
  out << "\n";
  return out.str();
}

std::string ComparisonJson(const std::vector<ComparedRun>& rows) {
  nlohmann::json runs = nlohmann::json::array();
  bool same_makespan = true, same_idle = true;
  for (const Row& r : rows) {
    const Metrics& m = r.metrics;
    nlohmann::json j = {{"schedule", r.timeline.schedule.name}, {"P", r.timeline.problem.P},
                        {"M", r.timeline.problem.M},           {"v", r.timeline.problem.v},
                        {"costs", {{"F", r.timeline.problem.costs.f}, {"B", r.timeline.problem.costs.b}}},
                        {"makespan", m.makespan},              {"busy", m.busy},
                        {"idle", m.idle},                      {"bubble_ratio", m.bubble_ratio},
                        {"slots", m.makespan * r.timeline.problem.P},
                        {"bubble_fraction", m.bubble_fraction}, {"transfers", m.transfers},
                        {"peak_activations", m.peak_activations},
                        {"peak_stage_sets", PeakStageSets(r).ToDouble()},
                        {"peak_activations_per_device", m.peak_activations_per_device}};
    nlohmann::json pred = nlohmann::json::object();
    if (r.prediction.makespan) pred["makespan"] = {{"formula", r.prediction.makespan_formula}, {"value", *r.prediction.makespan}};
    if (r.prediction.bubble_ratio)
      pred["bubble_ratio"] = {{"formula", r.prediction.bubble_formula}, {"value", r.prediction.bubble_ratio->ToString()}};
    j["max_span_idle"] = m.max_span_idle;
    j["max_device_idle"] = m.max_device_idle;
    if (r.prediction.span_idle)
      pred["max_span_idle"] = {{"formula", r.prediction.span_idle_formula}, {"value", *r.prediction.span_idle}};
    if (r.prediction.device_idle)
      pred["max_device_idle"] = {{"formula", r.prediction.device_idle_formula}, {"value", *r.prediction.device_idle}};
    if (r.prediction.peak_per_device)
      pred["peak_activations_per_device"] = {{"formula", r.prediction.peak_formula}, {"value", *r.prediction.peak_per_device}};
    if (r.prediction.peak_max)
      pred["peak_activations_max_per_device"] = {{"formula", r.prediction.peak_max_formula},
                                                 {"value", *r.prediction.peak_max}};
    j["predicted"] = pred;
    runs.push_back(j);
    same_makespan = same_makespan && m.makespan == rows[0].metrics.makespan;
    same_idle = same_idle && m.idle == rows[0].metrics.idle;
  }
  const Problem& p = rows[0].timeline.problem;
  return DumpJson({{"runs", runs},
                   {"makespans_equal", same_makespan},
                   {"bubbles_equal", same_idle},
                   {"cost_basis", CostBasisName(p.cost_basis)},
                   {"ticks_per_unit", p.ticks_per_unit}});
}

Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const Problem& problem) {
  // --chunks applies to the schedules that take it; the others run their own.
  std::vector<Problem> problems;
  for (const std::string& name : schedules) {
    Problem p = problem;
    if (const GeneratorInfo* g = FindGenerator(name); g != nullptr && g->fixed_chunks != 0) p.v = g->fixed_chunks;
    problems.push_back(std::move(p));
  }
  // One model, one tick: every run's costs scaled at the common scale.
  if (Error e = ScaleRuns(schedules, problems); e.code != ErrorCode::kOk) return e;
  std::vector<ComparedRun> rows;
  for (size_t i = 0; i < schedules.size(); ++i) {
    const std::string& name = schedules[i];
    Result<Timeline> t = Simulate(name, problems[i]);
    if (!t) return t.error();
    ComparedRun row{std::move(*t), {}, {}};
    row.metrics = Measure(row.timeline);
    row.prediction = Predict(name, row.timeline.problem);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ppsim::io

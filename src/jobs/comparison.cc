#include "ppsim/jobs/comparison.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "comparison_bytes.h"
#include "json_dump.h"
#include "ppsim/io/model_file.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/text_wrap.h"
#include "simulation_tree.h"
#include "ppsim/cost_scale.h"
#include "ppsim/generators.h"
#include "ppsim/metric_table.h"
#include "ppsim/problem_keys.h"
#include "ppsim/rational.h"
#include "ppsim/simulate.h"

namespace ppsim::jobs {
namespace {

using Row = ComparedRun;

// A run's column head: its schedule, and its setting when it has one.
std::string Label(const Row& r) { return r.run.timeline.schedule.name + (r.setting.empty() ? "" : " " + r.setting); }

std::string Join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

std::string Check(bool ok) { return ok ? "✓" : "✗"; }

// A metric of the run, printed the one way (metric_table.h).
std::string Value(const Row& r, const MetricInfo& metric, int device) {
  const std::optional<Rational> v = metric.value(r.run.metrics, r.run.timeline.problem, device);
  return v ? v->ToText() : "-";
}

// The closed form that predicts a run's metric, beside the measured value:
// "  (P-1)/M = 1/2 (0.5000) ✓"; "" when none applies.
std::string Beside(const Row& r, std::string_view name) {
  const PredictedMetric* form = r.prediction.Find(name);
  if (form == nullptr) return "";
  const std::optional<Rational> measured = form->metric->value(r.run.metrics, r.run.timeline.problem, -1);
  return "  " + form->formula + " = " + form->value.ToText() + " " + Check(measured == form->value);
}

// The closed form of each device's peak in chunk sets (peak_sets), or of the
// largest; "-" when none applies.
std::string PredictedPerDevice(const Row& r) {
  const Prediction& pr = r.prediction;
  const std::vector<std::int64_t>& got = r.run.metrics.activations.peak_per_device;
  if (!pr.peak_per_device && pr.peak_max) {
    const std::int64_t most = got.empty() ? 0 : *std::max_element(got.begin(), got.end());
    return "max " + pr.peak_max_formula + " = " + std::to_string(*pr.peak_max) + " " + Check(*pr.peak_max == most);
  }
  if (!pr.peak_per_device) return "-";
  return Join(*pr.peak_per_device) + " " + Check(*pr.peak_per_device == got);
}

}  // namespace

std::string ComparisonText(const std::vector<ComparedRun>& rows, int columns) {
  const size_t width = static_cast<size_t>(std::max(columns, 40));
  std::string out;
  const Problem& p = rows[0].run.timeline.problem;
  out += WrapWords("P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " comm=" + std::to_string(p.comm) +
                       "  activations: " + HoldModeName(p.hold),
                   width);
  out += WrapWords(std::string(p.cost_basis == CostBasis::kStage
                                   ? "costs per stage of the model on one device (a run with v chunks costs 1/v per chunk)"
                                   : "costs per chunk, as given (--cost-per chunk)") +
                       "; " + TickScaleText(p),
                   width);
  out += "\n";
  std::vector<std::vector<std::string>> table;  // a row a line, a column a run after the label
  auto line = [&](const std::string& name, auto text) {
    table.push_back({name});
    for (const Row& r : rows) table.back().push_back(text(r));
  };
  line("", [](const Row& r) {
    return Label(r) + (r.run.timeline.problem.v > 1 ? " v=" + std::to_string(r.run.timeline.problem.v) : "");
  });
  // One row per metric of the table (metric_table.h), in its order, each
  // value printed the one way with its closed form beside it where one
  // applies; a per-device metric adds a row of its devices' values.
  for (const MetricInfo& metric : MetricTable()) {
    if (std::none_of(rows.begin(), rows.end(), [&](const Row& r) { return MetricApplies(metric, r.run.metrics); }))
      continue;
    line(metric.name, [&](const Row& r) { return Value(r, metric, -1) + Beside(r, metric.name); });
    if (!metric.per_device) continue;
    line(std::string(metric.name) + " per device", [&](const Row& r) {
      std::string s;
      for (int d = 0; d < r.run.timeline.problem.P; ++d) s += (d > 0 ? " " : "") + Value(r, metric, d);
      return s;
    });
    if (std::string_view(metric.name) == "peak_sets") line("  predicted", PredictedPerDevice);
  }
  // Columns as wide as their widest cell, two spaces apart; split into
  // groups of runs, and cells wrapped at words, to fit the width.
  out += FitTable(table, width);
  out += "\n";
  bool same_makespan = true, same_idle = true, same_busy = true;
  for (const Row& r : rows) {
    same_busy = same_busy && r.run.metrics.busy == rows[0].run.metrics.busy;
    same_makespan = same_makespan && r.run.metrics.makespan == rows[0].run.metrics.makespan;
    same_idle = same_idle && r.run.metrics.idle == rows[0].run.metrics.idle;
  }
  std::string makespans = std::string("makespans ") + (same_makespan ? "equal" : "differ") + ":";
  for (const Row& r : rows) makespans += " " + Label(r) + "=" + std::to_string(r.run.metrics.makespan);
  std::string busy = std::string("busy (work) ") + (same_busy ? "equal" : "differs") + ":";
  for (const Row& r : rows) busy += " " + Label(r) + "=" + std::to_string(r.run.metrics.busy);
  std::string bubbles = std::string("bubbles ") + (same_idle ? "equal" : "differ") + ":";
  for (size_t i = 0; i < rows.size(); ++i)
    bubbles += (i == 0 ? " " : " · ") + Label(rows[i]) + " " +
               IdleSlotsText(rows[i].run.metrics, rows[i].run.timeline.problem.P);
  for (const std::string& s : {makespans, busy, bubbles}) out += WrapWords(s, width);
  const std::string trades = TradeLines(rows);  // with bytes: memory saved, time paid
  for (size_t at = 0, end; at < trades.size(); at = end + 1) {
    end = trades.find('\n', at);
    out += WrapWords(trades.substr(at, end - at), width);
  }
  return out;
}

std::string ComparisonJson(const std::vector<ComparedRun>& rows) {
  nlohmann::json runs = nlohmann::json::array();
  bool same_makespan = true, same_idle = true;
  for (const Row& r : rows) {
    const Metrics& m = r.run.metrics;
    const Problem& p = r.run.timeline.problem;
    nlohmann::json j = {{"schedule", r.run.timeline.schedule.name},
                        {"P", p.P},
                        {"M", p.M},
                        {"v", p.v},
                        {"costs", {{"F", p.costs.f}, {"B", p.costs.b}}},
                        {"slots", m.makespan * p.P}};
    if (!r.setting.empty()) j["with"] = r.setting;
    io::AddMetricsJson(m, p, j);  // every metric of the table
    if (ComparesBytes(rows)) j["peak_bytes_per_device"] = PeakBytes(r);
    nlohmann::json pred = nlohmann::json::object();
    // Each form under its metric's JSON key, its number in the metric's own
    // JSON form (bubble_ratio a double, as it is measured).
    for (const PredictedMetric& form : r.prediction.forms) {
      const MetricInfo& metric = *form.metric;
      nlohmann::json value = form.value.ToDouble();
      if (metric.json_form == JsonForm::kInteger) value = form.value.num();
      pred[metric.json_key] = {{"formula", form.formula}, {"value", value}};
    }
    if (r.prediction.peak_per_device)
      pred["peak_activations_per_device"] = {{"formula", r.prediction.peak_formula}, {"value", *r.prediction.peak_per_device}};
    if (r.prediction.peak_max)
      pred["peak_activations_max_per_device"] = {{"formula", r.prediction.peak_max_formula},
                                                 {"value", *r.prediction.peak_max}};
    j["predicted"] = pred;
    runs.push_back(j);
    same_makespan = same_makespan && m.makespan == rows[0].run.metrics.makespan;
    same_idle = same_idle && m.idle == rows[0].run.metrics.idle;
  }
  const Problem& p = rows[0].run.timeline.problem;
  return io::DumpJson({{"runs", runs},
                   {"makespans_equal", same_makespan},
                   {"bubbles_equal", same_idle},
                   {"cost_basis", CostBasisName(p.cost_basis)},
                   {"ticks_per_unit", p.ticks_per_unit}});
}

Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const Problem& problem) {
  return Compare(schedules, problem, {});
}

Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const io::ProblemOptions& options,
                                         const std::vector<std::string>& settings) {
  if (!options.layout.empty())  // a Megatron layout runs stage i on rank i mod P
    for (const std::string& name : schedules)
      if (Error e = io::LayoutRunsSchedule(name); !e.ok()) return e;
  // Link parameters need a comm model, in the base runs or under a --with.
  const bool comms_with = std::any_of(settings.begin(), settings.end(), [](const std::string& s) {
    return s.rfind("comms=", 0) == 0 && s != "comms=none";
  });
  if (!comms_with)
    if (Error e = io::CheckLinkHasComms(options); !e.ok()) return e;
  Result<Problem> problem = io::ToProblem(options);
  if (!problem) return problem.error();
  return Compare(schedules, *problem, settings);
}

Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const Problem& problem,
                                         const std::vector<std::string>& settings) {
  // Each schedule plainly, then again under each setting.
  std::vector<std::string> names, with;
  std::vector<Problem> problems;
  for (size_t k = 0; k <= settings.size(); ++k) {
    Problem base = problem;
    if (k > 0) {
      const std::string& s = settings[k - 1];
      const size_t eq = s.find('=');
      if (eq == std::string::npos)
        return Error::Field(ErrorCode::kUsage, "with", ": '" + s + "' is not KEY=VALUE (e.g. recompute=full)");
      if (Error e = SetProblemKey(s.substr(0, eq), KeyValue::FromText(s.substr(eq + 1)), base); !e.ok())
        return Error::Field(e.code, "with", " " + s + ": " + e.field + e.message);
    }
    // --chunks applies to the schedules that take it; the others run their own.
    for (const std::string& name : schedules) {
      Problem p = base;
      if (const GeneratorInfo* g = FindGenerator(name); g != nullptr && g->fixed_chunks != 0) p.v = g->fixed_chunks;
      problems.push_back(std::move(p));
      names.push_back(name);
      with.push_back(k == 0 ? "" : settings[k - 1]);
    }
  }
  // One model, one tick: every run's costs scaled at the common scale.
  if (Error e = ScaleRuns(names, problems); e.code != ErrorCode::kOk) return e;
  std::vector<ComparedRun> rows;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    Result<Timeline> t = Simulate(name, problems[i]);
    if (!t) return t.error();
    std::string run_name = t->schedule.name;
    ComparedRun row{Measured(std::move(run_name), std::move(*t)), {}, with[i]};
    if (with[i].empty())
      row.prediction = Predict(name, row.run.timeline.problem);  // the forms assume the plain problem
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ppsim::jobs

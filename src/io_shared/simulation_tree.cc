#include "simulation_tree.h"

#include <string>
#include <variant>

#include "ppsim/metric_table.h"

namespace ppsim::io {
namespace {

using nlohmann::json;

json PerStage(const std::vector<Tick>& values) {
  if (values.size() == 1) return values[0];
  return values;
}

json Series(const StepSeries& s) {
  json out = json::array();
  for (const auto& [tick, value] : s.steps) out.push_back({tick, value});
  return out;
}

std::string KindString(OpKind k) { return std::string(1, KindChar(k)); }

// A metric's value as JSON writes it (MetricJsonValue).
json Number(const JsonNumber& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return nullptr;
}

}  // namespace

void AddMetricsJson(const Metrics& m, const Problem& p, json& into) {
  for (const MetricInfo& metric : MetricTable()) {
    if (!MetricApplies(metric, m)) continue;
    if (metric.json_key != nullptr) into[metric.json_key] = Number(MetricJsonValue(metric, m, p, -1));
    if (metric.json_per_device_key != nullptr) {
      json list = json::array();
      for (int d = 0; d < p.P; ++d) list.push_back(Number(MetricJsonValue(metric, m, p, d)));
      into[metric.json_per_device_key] = std::move(list);
    }
  }
}

json SimulationJson(const Timeline& t, const Metrics& m) {
  const Problem& p = t.problem;
  json costs = {{"F", PerStage(p.costs.f)}, {"B", PerStage(p.costs.b)}};
  if (t.schedule.split_backward) costs["W"] = PerStage(p.costs.w);
  if (!p.costs.fb.empty()) costs["FB"] = PerStage(p.costs.fb);
  if (!p.costs.bw.empty()) costs["BW"] = PerStage(p.costs.bw);
  json j = {
      {"schedule", t.schedule.name},
      {"P", p.P},
      {"M", p.M},
      {"v", p.v},
      {"stages", p.stages()},
      {"placement", PlacementName(p.placement)},
      {"split_backward", t.schedule.split_backward},
      {"costs", costs},  // ticks per op
      {"cost_basis", CostBasisName(p.cost_basis)},
      {"ticks_per_unit", p.ticks_per_unit == 0 ? 1 : p.ticks_per_unit},
      {"comm", p.comm},
      {"hold", HoldModeName(p.hold)},
  };
  if (p.placement == Placement::kMap) j["stage_to_device"] = p.stage_device;
  AddMetricsJson(m, p, j);
  if (!p.comm_hops.empty()) j["comm_hops"] = p.comm_hops;
  json per_device = json::array();
  for (const StepSeries& s : m.activations.per_device) per_device.push_back(Series(s));
  j["activations"] = {{"cluster", Series(m.activations.cluster)}, {"per_device", per_device}};
  json ops = json::array();
  for (const PlacedOp& op : t.Ops()) {
    json o = {{"device", op.device}, {"stage", op.stage},         {"kind", KindString(op.kind)},
              {"microbatch", op.microbatch}, {"start", op.start}, {"end", op.end}};
    if (op.overlap >= 0) o["overlap"] = op.overlap;
    if (op.full) o["full"] = true;
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  return j;
}

}  // namespace ppsim::io

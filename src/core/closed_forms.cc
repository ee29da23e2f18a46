#include "ppsim/closed_forms.h"

#include "uniform_cost.h"
#include "ppsim/generators.h"

namespace ppsim {

Prediction Predict(std::string_view schedule, const Problem& p) {
  const GeneratorInfo* g = FindGenerator(schedule);
  if (g == nullptr || g->predict == nullptr) return {};
  // Every published form assumes one F and one B cost for all stages and
  // free communication.
  if (!Uniform(p.costs.f) || !Uniform(p.costs.b) || p.comm != 0 || !p.comm_hops.empty()) return {};
  return g->predict(p);
}

std::vector<PredictedMetric> PredictedMetrics(const Prediction& p) {
  std::vector<PredictedMetric> out;
  if (p.makespan) out.push_back({"makespan", p.makespan_formula, Rational(*p.makespan)});
  if (p.bubble_ratio) out.push_back({"bubble_ratio", p.bubble_formula, *p.bubble_ratio});
  if (p.span_idle) out.push_back({"max_span_idle", p.span_idle_formula, Rational(*p.span_idle)});
  if (p.device_idle) out.push_back({"max_device_idle", p.device_idle_formula, Rational(*p.device_idle)});
  return out;
}

}  // namespace ppsim

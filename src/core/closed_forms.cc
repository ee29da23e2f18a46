#include "ppsim/closed_forms.h"

#include <cstdlib>
#include <utility>

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

void Prediction::Add(std::string_view metric, std::string formula, std::optional<Rational> value) {
  const MetricInfo* row = FindMetric(metric);
  if (row == nullptr || Find(metric) != nullptr) std::abort();  // a schedule's predictor is wrong: see REQUIRES
  if (value) forms.push_back({row, std::move(formula), *value});
}

const PredictedMetric* Prediction::Find(std::string_view metric) const {
  for (const PredictedMetric& form : forms)
    if (metric == form.metric->name) return &form;
  return nullptr;
}

}  // namespace ppsim

#include "metrics_py.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

pyb::object Number(const JsonNumber& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return pyb::int_(*i);
  if (const auto* d = std::get_if<double>(&v)) return pyb::float_(*d);
  return pyb::none();
}

}  // namespace

pyb::object MetricObject(const MetricInfo& metric, const Metrics& m, const Problem& p, int device) {
  if (device != kEachDevice) return Number(MetricJsonValue(metric, m, p, device));
  if (metric.json_form == JsonForm::kInteger) {  // whole, as the JSON's integers
    std::vector<std::int64_t> v;
    for (int d = 0; d < p.P; ++d) v.push_back(metric.value(m, p, d).value_or(0).num());
    return pyb::array_t<std::int64_t>(v.size(), v.data());
  }
  std::vector<double> v;
  for (int d = 0; d < p.P; ++d) {
    const std::optional<Rational> r = metric.value(m, p, d);
    v.push_back(r ? r->ToDouble() : std::nan(""));
  }
  return pyb::array_t<double>(v.size(), v.data());
}

pyb::dict MetricDict(const Metrics& m, const Problem& p) {
  pyb::dict d;
  for (const MetricInfo& metric : MetricTable()) {
    if (!MetricApplies(metric, m)) continue;
    if (metric.json_key != nullptr) d[metric.json_key] = MetricObject(metric, m, p, -1);
    if (metric.json_per_device_key != nullptr) d[metric.json_per_device_key] = MetricObject(metric, m, p, kEachDevice);
  }
  return d;
}

}  // namespace ppsim::py

// A run's metrics as Python sees them: every metric of the table
// (metric_table.h) under its JSON key, each value an int, a float or None
// exactly as the JSON has it (MetricJsonValue), a per-device metric as a
// numpy array. Timeline's properties and RenderResult.runs read them.
#pragma once

#include <pybind11/pybind11.h>

#include "ppsim/metric_table.h"

namespace ppsim::py {

// The whole run's value (device -1), or each device's as a numpy array
// (device kEachDevice).
inline constexpr int kEachDevice = -2;
pybind11::object MetricObject(const MetricInfo& metric, const Metrics& metrics, const Problem& problem, int device);

// {JSON key: value} for every metric of the table.
pybind11::dict MetricDict(const Metrics& metrics, const Problem& problem);

}  // namespace ppsim::py

#include "problem_args.h"

#include <string>

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// 4 -> "4", [3, 1, 2] -> "3:1:2", "F=1" -> "F=1".
std::string Text(const pyb::handle& value) {
  if (pyb::isinstance<pyb::list>(value) || pyb::isinstance<pyb::tuple>(value)) {
    std::string s;
    for (pyb::handle item : value) s += (s.empty() ? "" : ":") + Text(item);
    return s;
  }
  return pyb::str(value);
}

// {"F": 1, "B": [2, 3]} -> "F=1,B=2:3"; a string is passed through.
std::string CostText(const pyb::object& costs) {
  if (!pyb::isinstance<pyb::dict>(costs)) return Text(costs);
  std::string s;
  for (auto [kind, value] : costs.cast<pyb::dict>())
    s += (s.empty() ? "" : ",") + std::string(pyb::str(kind)) + "=" + Text(value);
  return s;
}

void Set(const pyb::object& value, std::string& out) {
  if (!value.is_none()) out = Text(value);
}

}  // namespace

bool ProblemArgs::shape_given() const { return !P.is_none() || !M.is_none() || !chunks.is_none(); }

io::ProblemOptions ToOptions(const ProblemArgs& a) {
  io::ProblemOptions o;
  Set(a.P, o.P);
  Set(a.M, o.M);
  Set(a.chunks, o.chunks);
  if (!a.costs.is_none()) o.cost = CostText(a.costs);
  Set(a.comm, o.comm);
  Set(a.hold, o.hold);
  Set(a.cost_file, o.cost_file);
  Set(a.memory_limit, o.memory_limit);
  Set(a.cost_per, o.cost_per);
  return o;
}

}  // namespace ppsim::py

#include "problem_args.h"

#include <string>

#include "args.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// 4 -> "4", [3, 1, 2] -> "3:1:2", "F=1" -> "F=1". A list is flat: each value
// an int or str (so no nesting, and no list that holds itself, is followed).
std::string Values(const pyb::handle& value, const std::string& keyword, const char* expected) {
  if (!PyList_Check(value.ptr()) && !PyTuple_Check(value.ptr())) {
    if (!PyUnicode_Check(value.ptr()) && !PyIndex_Check(value.ptr())) WrongType(keyword, expected, value);
    return IntText(value, keyword);
  }
  std::string s;
  size_t i = 0;
  for (pyb::handle item : value) {
    s += (i > 0 ? ":" : "") + IntText(item, keyword + "[" + std::to_string(i) + "]");
    ++i;
  }
  return s;
}

// {"F": 1, "B": [2, 3]} -> "F=1,B=2:3"; a string is passed through.
std::string CostText(const pyb::object& costs) {
  if (PyUnicode_Check(costs.ptr())) return Utf8(costs, "costs");
  if (!PyDict_Check(costs.ptr())) WrongType("costs", "a dict like {\"F\": 2, \"B\": [3, 4]} or str", costs);
  std::string s;
  for (auto [kind, value] : costs.cast<pyb::dict>()) {
    const std::string name = TextArg(kind, "costs key");
    s += (s.empty() ? "" : ",") + name + "=" + Values(value, "costs['" + name + "']", "int, str or a list of int");
  }
  return s;
}

}  // namespace

bool ProblemArgs::shape_given() const { return !P.is_none() || !M.is_none() || !chunks.is_none(); }

io::ProblemOptions ToOptions(const ProblemArgs& a) {
  io::ProblemOptions o;
  if (!a.P.is_none()) o.P = IntText(a.P, "P");
  if (!a.M.is_none()) o.M = IntText(a.M, "M");
  if (!a.chunks.is_none()) o.chunks = IntText(a.chunks, "chunks");
  if (!a.costs.is_none()) o.cost = CostText(a.costs);
  if (!a.comm.is_none()) o.comm = Values(a.comm, "comm", "int, str or a list of int");
  if (!a.hold.is_none()) o.hold = TextArg(a.hold, "hold");
  if (!a.cost_file.is_none()) o.cost_file = PathArg(a.cost_file, "cost_file");
  if (!a.memory_limit.is_none()) o.memory_limit = IntText(a.memory_limit, "memory_limit");
  if (!a.cost_per.is_none()) o.cost_per = TextArg(a.cost_per, "cost_per");
  if (!a.model.is_none()) {
    ModelArgument model = ModelArg(a.model, "model");
    o.model = model.path;
    o.model_json = model.json;
  }
  if (!a.layout.is_none()) o.layout = TextArg(a.layout, "layout");
  if (!a.slices.is_none()) o.slices = IntText(a.slices, "slices");
  if (!a.slice_costs.is_none()) o.slice_costs = Values(a.slice_costs, "slice_costs", "'equal', 'causal' or a list of int");
  if (!a.seq_len.is_none()) o.seq_len = IntText(a.seq_len, "seq_len");
  if (!a.hidden.is_none()) o.hidden = IntText(a.hidden, "hidden");
  if (!a.microbatch_costs.is_none())
    o.microbatch_costs = Values(a.microbatch_costs, "microbatch_costs", "a list of int");
  if (!a.microbatch_lengths.is_none())
    o.microbatch_lengths = Values(a.microbatch_lengths, "microbatch_lengths", "'uniform' or a list of int");
  if (!a.length_range.is_none()) o.length_range = Values(a.length_range, "length_range", "a list [MIN, MAX]");
  if (!a.length_seed.is_none()) o.length_seed = IntText(a.length_seed, "length_seed");
  if (!a.length_cost.is_none()) o.length_cost = TextArg(a.length_cost, "length_cost");
  if (!a.recompute.is_none()) o.recompute = TextArg(a.recompute, "recompute");
  if (!a.recompute_at.is_none()) o.recompute_at = TextArg(a.recompute_at, "recompute_at");
  if (!a.recompute_inputs.is_none()) o.recompute_inputs = pyb::str(a.recompute_inputs).cast<std::string>();
  if (!a.comms.is_none()) o.comms = TextArg(a.comms, "comms");
  if (!a.link_latency.is_none()) o.link_latency = IntText(a.link_latency, "link_latency");
  if (!a.link_bandwidth.is_none()) o.link_bandwidth = IntText(a.link_bandwidth, "link_bandwidth");
  if (!a.link_concurrency.is_none()) o.link_concurrency = IntText(a.link_concurrency, "link_concurrency");
  if (!a.link_bytes.is_none()) o.link_bytes = Values(a.link_bytes, "link_bytes", "int, str or a list of int");
  if (!a.link_send_release.is_none()) o.link_send_release = TextArg(a.link_send_release, "link_send_release");
  return o;
}

}  // namespace ppsim::py

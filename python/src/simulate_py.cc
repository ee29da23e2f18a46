// ppsim.simulate, ppsim.simulate_pytorch, ppsim.list_schedules.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "ppsim/generators.h"
#include "ppsim/io/model_file.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/simulate.h"
#include "problem_args.h"
#include "timeline_py.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

PyTimeline Wrap(Timeline t) { return PyTimeline(std::move(t)); }

PyTimeline SimulateNamed(const pyb::object& schedule_arg, const ProblemArgs& args, const pyb::object& schedule_file,
                         const pyb::object& placement_arg) {
  const std::string placement = placement_arg.is_none() ? "" : TextArg(placement_arg, "placement");
  const std::string schedule = TextArg(schedule_arg, "schedule");
  const io::ProblemOptions options = ToOptions(args);
  const std::string file = schedule_file.is_none() ? "" : PathArg(schedule_file, "schedule_file");
  if (file.empty() && !options.layout.empty()) Check(io::LayoutRunsSchedule(schedule));
  Check(io::CheckLinkHasComms(options));
  const Problem problem = Unwrap(io::ToProblem(options));
  const bool shape_given = args.shape_given();
  Result<Timeline> t = [&] {
    pyb::gil_scoped_release unlocked;  // placement touches no Python object
    return file.empty() ? Simulate(schedule, problem) : io::SimulateScheduleFile(file, problem, shape_given);
  }();
  if (t && !placement.empty()) Check(io::PlacementAgrees(placement, file.empty() ? schedule : file, t->problem));
  return Wrap(Unwrap(std::move(t)));
}

// One action's text: None is an idle step, else its str() (PyTorch's
// _Action is a NamedTuple whose str() is "0F0"); a list or dict is refused
// before str() could walk into it.
std::string ActionText(pyb::handle a, const std::string& where) {
  if (a.is_none()) return "";
  if (PyList_Check(a.ptr()) || PyDict_Check(a.ptr()) || PyBytes_Check(a.ptr()))
    WrongType(where, "an action (str, None or an object whose str() is one)", a);
  return Utf8(pyb::str(a), where);
}

// {rank: [action or None, ...]} -> the CSV PyTorch's _dump_csv writes for it,
// read by the CSV reader: error positions are that CSV's row (rank + 1) and column.
PyTimeline SimulatePytorch(const pyb::object& order_arg, const ProblemArgs& args) {
  if (!PyDict_Check(order_arg.ptr())) WrongType("pipeline_order", "a dict {rank: [action, ...]}", order_arg);
  const pyb::dict order = pyb::reinterpret_borrow<pyb::dict>(order_arg);
  std::vector<std::string> rows(order.size());
  std::vector<bool> seen(order.size(), false);
  for (auto [key, actions] : order) {
    const long long rank = TickArg(key, "pipeline_order key");
    const std::string where = "pipeline_order[" + std::to_string(rank) + "]";
    if (!PyList_Check(actions.ptr()) && !PyTuple_Check(actions.ptr()))
      WrongType(where, "a list of actions", actions);
    if (rank < 0 || rank >= static_cast<long long>(rows.size()) || seen[rank])
      throw PyError{Fail(ErrorCode::kInvalidValue, "pipeline_order: ranks must be 0.." +
                                                       std::to_string(rows.size() - 1) + ", got " +
                                                       std::string(pyb::repr(key)))};
    seen[rank] = true;
    std::string row;
    size_t i = 0;
    for (pyb::handle a : actions) {
      const std::string text = ActionText(a, where + "[" + std::to_string(i) + "]");
      if (text.find_first_of(",\"\r\n") != std::string::npos)
        throw PyError{Fail(ErrorCode::kParse, "pipeline_order[" + std::to_string(rank) + "][" + std::to_string(i) +
                                                  "]: '" + text + "' is not an action like 0F0")};
      row += (i++ ? "," : "") + text;
    }
    rows[rank] = row.empty() && i == 1 ? "\"\"" : row;
  }
  std::string csv;
  for (const std::string& row : rows) csv += row + "\r\n";
  const io::ProblemOptions options = ToOptions(args);
  Check(io::CheckLinkHasComms(options));
  const Problem problem = Unwrap(io::ToProblem(options));
  io::ImportedSchedule imported = Unwrap(io::ReadPytorchCsv(csv, "pipeline_order"));
  return Wrap(Unwrap(io::SimulateImported(std::move(imported), problem, args.shape_given(), "pipeline_order")));
}

pyb::list ListSchedules() {
  pyb::list out;
  for (const GeneratorInfo& g : Generators())
    out.append(pyb::dict(pyb::arg("name") = g.name, pyb::arg("description") = g.description,
                         pyb::arg("preconditions") = g.preconditions,
                         pyb::arg("placement") = PlacementName(g.placement),
                         pyb::arg("chunks") = g.fixed_chunks == 0 ? pyb::object(pyb::str("any"))
                                                                  : pyb::object(pyb::int_(g.fixed_chunks)),
                         pyb::arg("split_backward") = g.split_backward));
  return out;
}

}  // namespace

void BindSimulate(pyb::module_& m) {
  m.def("list_schedules", &ListSchedules, "every schedule, as `ppsim list --json` lists them");
  m.def(
      "simulate",
      [](pyb::object schedule, pyb::object P, pyb::object M, pyb::object chunks, pyb::object costs,
         pyb::object comm, pyb::object hold, pyb::object cost_file, pyb::object memory_limit, pyb::object cost_per,
         pyb::object schedule_file, pyb::object model, pyb::object layout, pyb::object slices,
         pyb::object slice_costs, pyb::object seq_len, pyb::object hidden, pyb::object placement,
         pyb::object microbatch_costs, pyb::object comms, pyb::object link_latency, pyb::object link_bandwidth,
         pyb::object link_concurrency, pyb::object link_bytes, pyb::object link_send_release, pyb::object recompute, pyb::object recompute_at,
         pyb::object recompute_inputs, pyb::object microbatch_lengths, pyb::object length_range,
         pyb::object length_seed, pyb::object length_cost) {
        ProblemArgs args{P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per, model, layout};
        args.slices = slices;
        args.slice_costs = slice_costs;
        args.seq_len = seq_len;
        args.hidden = hidden;
        args.microbatch_costs = microbatch_costs;
        args.SetComms(comms, link_latency, link_bandwidth, link_concurrency, link_bytes, link_send_release);
        args.recompute = recompute;
        args.recompute_at = recompute_at;
        args.recompute_inputs = recompute_inputs;
        args.microbatch_lengths = microbatch_lengths;
        args.length_range = length_range;
        args.length_seed = length_seed;
        args.length_cost = length_cost;
        return SimulateNamed(schedule, args, schedule_file, placement);
      },
      pyb::arg("schedule") = "1f1b", PPSIM_PROBLEM_KWARGS, pyb::arg("schedule_file") = pyb::none(),
      pyb::arg("model") = pyb::none(), pyb::arg("layout") = pyb::none(), pyb::arg("slices") = pyb::none(),
      pyb::arg("slice_costs") = pyb::none(), pyb::arg("seq_len") = pyb::none(), pyb::arg("hidden") = pyb::none(),
      pyb::arg("placement") = pyb::none(), pyb::arg("microbatch_costs") = pyb::none(),
      pyb::arg("comms") = pyb::none(), pyb::arg("link_latency") = pyb::none(),
      pyb::arg("link_bandwidth") = pyb::none(), pyb::arg("link_concurrency") = pyb::none(),
      pyb::arg("link_bytes") = pyb::none(), pyb::arg("link_send_release") = pyb::none(),
      pyb::arg("recompute") = pyb::none(),
      pyb::arg("recompute_at") = pyb::none(), pyb::arg("recompute_inputs") = pyb::none(),
      pyb::arg("microbatch_lengths") = pyb::none(), pyb::arg("length_range") = pyb::none(),
      pyb::arg("length_seed") = pyb::none(), pyb::arg("length_cost") = pyb::none(),
      "Generate and place a schedule (`ppsim simulate`); returns a Timeline. model= (a model file, TOML or .json, "
      "or a dict with the same keys, docs/costs.md) "
      "with layout= (a Megatron layout string) sets each stage's costs and bytes to its layers' sums; slices= "
      "cuts each microbatch into sequence slices (seq1f1b; docs/semantics.md); comms= (pytorch, "
      "pytorch-deferred, adjacent, megatron, megatron-overlap, dualpipe) with link_latency=, link_bandwidth=, link_bytes=, link_concurrency=, link_send_release= places "
      "communication as SEND/RECV ops (docs/comms.md); recompute= ('full', 'selective') runs recompute as an op R "
      "before each B, recompute_at= ('before_b', 'early') says where R waits, recompute_inputs= the share of a "
      "stage's bytes held between F and R (docs/semantics.md); microbatch_lengths= (M lengths or 'uniform', "
      "with length_range=[MIN, MAX], length_seed=, length_cost= 'linear' or 'causal') gives each microbatch its "
      "cost from its length (docs/costs.md).");
  m.def(
      "simulate_pytorch",
      [](pyb::object order, pyb::object P, pyb::object M, pyb::object chunks, pyb::object costs,
         pyb::object comm, pyb::object hold, pyb::object cost_file, pyb::object memory_limit, pyb::object cost_per) {
        return SimulatePytorch(order, {P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per});
      },
      pyb::arg("pipeline_order"), PPSIM_PROBLEM_KWARGS,
      "Place PyTorch's per-rank action lists ({rank: ['0F0', '0I0', None, ...]}); returns a Timeline.");
}

}  // namespace ppsim::py

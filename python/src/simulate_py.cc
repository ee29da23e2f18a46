// ppsim.simulate, ppsim.simulate_pytorch, ppsim.list_schedules.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ppsim/generators.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/simulate.h"
#include "problem_args.h"
#include "timeline_py.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

PyTimeline Wrap(Timeline t) { return PyTimeline(std::make_shared<const Timeline>(std::move(t))); }

PyTimeline SimulateNamed(const std::string& schedule, const ProblemArgs& args, const pyb::object& schedule_file) {
  const Problem problem = Unwrap(io::ToProblem(ToOptions(args)));
  const std::string file = schedule_file.is_none() ? "" : std::string(pyb::str(schedule_file));
  const bool shape_given = args.shape_given();
  pyb::gil_scoped_release unlocked;  // placement touches no Python object
  return Wrap(Unwrap(file.empty() ? Simulate(schedule, problem) : io::SimulateScheduleFile(file, problem, shape_given)));
}

// {rank: [action or None, ...]} -> the CSV PyTorch's _dump_csv writes for it,
// read by the CSV reader: error positions are that CSV's row (rank + 1) and column.
PyTimeline SimulatePytorch(const pyb::dict& order, const ProblemArgs& args) {
  std::vector<std::string> rows(order.size());
  std::vector<bool> seen(order.size(), false);
  for (auto [key, actions] : order) {
    const long rank = key.cast<long>();
    if (rank < 0 || rank >= static_cast<long>(rows.size()) || seen[rank])
      throw PyError{Fail(ErrorCode::kInvalidValue, "pipeline_order: ranks must be 0.." +
                                                       std::to_string(rows.size() - 1) + ", got " +
                                                       std::string(pyb::repr(key)))};
    seen[rank] = true;
    std::string row;
    size_t i = 0;
    for (pyb::handle a : actions) {
      const std::string text = a.is_none() ? "" : std::string(pyb::str(a));
      if (text.find_first_of(",\"\r\n") != std::string::npos)
        throw PyError{Fail(ErrorCode::kParse, "pipeline_order[" + std::to_string(rank) + "][" + std::to_string(i) +
                                                  "]: '" + text + "' is not an action like 0F0")};
      row += (i++ ? "," : "") + text;
    }
    rows[rank] = row.empty() && i == 1 ? "\"\"" : row;
  }
  std::string csv;
  for (const std::string& row : rows) csv += row + "\r\n";
  const Problem problem = Unwrap(io::ToProblem(ToOptions(args)));
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
      [](const std::string& schedule, pyb::object P, pyb::object M, pyb::object chunks, pyb::object costs,
         pyb::object comm, pyb::object hold, pyb::object cost_file, pyb::object memory_limit, pyb::object cost_per,
         pyb::object schedule_file) {
        return SimulateNamed(schedule, {P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per},
                             schedule_file);
      },
      pyb::arg("schedule") = "1f1b", PPSIM_PROBLEM_KWARGS, pyb::arg("schedule_file") = pyb::none(),
      "Generate and place a schedule (`ppsim simulate`); returns a Timeline.");
  m.def(
      "simulate_pytorch",
      [](const pyb::dict& order, pyb::object P, pyb::object M, pyb::object chunks, pyb::object costs,
         pyb::object comm, pyb::object hold, pyb::object cost_file, pyb::object memory_limit, pyb::object cost_per) {
        return SimulatePytorch(order, {P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per});
      },
      pyb::arg("pipeline_order"), PPSIM_PROBLEM_KWARGS,
      "Place PyTorch's per-rank action lists ({rank: ['0F0', '0I0', None, ...]}); returns a Timeline.");
}

}  // namespace ppsim::py

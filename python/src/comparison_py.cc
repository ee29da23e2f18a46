// ppsim.compare -> ppsim.Comparison: the runs of `ppsim compare`, their
// Timelines, the CLI's table (str) and JSON (to_json), and the runs drawn in
// one chart in Jupyter.
#include <pybind11/stl.h>

#include <memory>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "ppsim/jobs/comparison.h"
#include "problem_args.h"
#include "repr.h"
#include "timeline_py.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

struct PyComparison {
  std::shared_ptr<const std::vector<jobs::ComparedRun>> runs;

  std::vector<render::RunInput> Inputs() const {
    std::vector<render::RunInput> in;
    for (const jobs::ComparedRun& r : *runs) in.push_back({&r.run});
    return in;
  }
  // Run i's Timeline (i < 0 counts from the end); it shares ownership of the whole comparison.
  PyTimeline At(const pyb::object& index) const {
    const long long n = static_cast<long long>(runs->size());
    long long i = TickArg(index, "index");
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw pyb::index_error("Comparison index out of range");
    const jobs::ComparedRun& r = (*runs)[static_cast<size_t>(i)];
    return PyTimeline(std::shared_ptr<const Run>(runs, &r.run));
  }
  pyb::list Timelines() const {
    pyb::list out;
    for (size_t i = 0; i < runs->size(); ++i) out.append(At(pyb::int_(i)));
    return out;
  }
};

// `with_` (the CLI's repeatable --with KEY=VALUE; `with` is Python's
// keyword): {"recompute": "full"} as check's `set` is, or a list of
// "KEY=VALUE" strings, or one.
std::vector<std::string> SettingsArg(const pyb::object& value) {
  if (value.is_none()) return {};
  if (PyDict_Check(value.ptr())) return AssignmentsArg(value, "with_", false);
  if (PyUnicode_Check(value.ptr())) return {TextArg(value, "with_")};
  return TextListArg(value, "with_");
}

PyComparison CompareNamed(const pyb::object& names, const ProblemArgs& args, const pyb::object& with) {
  const std::vector<std::string> schedules = TextListArg(names, "schedules");
  // The table and chart of no run have nothing to show: refused here, at the call.
  if (schedules.empty()) throw PyError{Fail(ErrorCode::kUsage, "schedules: give at least one schedule name")};
  const std::vector<std::string> settings = SettingsArg(with);
  const io::ProblemOptions options = ToOptions(args);
  pyb::gil_scoped_release unlocked;
  return PyComparison{
      std::make_shared<const std::vector<jobs::ComparedRun>>(Unwrap(jobs::Compare(schedules, options, settings)))};
}

}  // namespace

void BindComparison(pyb::module_& m) {
  using C = PyComparison;
  pyb::class_<C>(m, "Comparison", "Several schedules on one problem (`ppsim compare`).")
      .def_property_readonly("timelines", &C::Timelines)
      .def("__len__", [](const C& c) { return c.runs->size(); })
      .def("__getitem__", &C::At)
      .def("to_json", [](const C& c) { return jobs::ComparisonJson(*c.runs) + "\n"; },
           "the bytes `ppsim compare --json` prints")
      .def("__str__", [](const C& c) { return jobs::ComparisonText(*c.runs); }, "the table `ppsim compare` prints")
      .def("svg", [](const C& c, pyb::object width, pyb::object height) {
             return RunsSvg(c.Inputs(), IntArg(width, "width"), IntArg(height, "height"));
           },
           pyb::arg("width") = 1200, pyb::arg("height") = 680)
      .def("_repr_svg_", [](const C& c) -> pyb::object {
        std::optional<std::string> svg = RunsSvgOrNone(c.Inputs());
        return svg ? pyb::object(pyb::str(*svg)) : pyb::object(pyb::none());
      })
      .def("_repr_html_", [](const C& c) { return RunsHtml(c.Inputs()); });
  m.def(
      "compare",
      [](pyb::object schedules, pyb::object P, pyb::object M, pyb::object chunks,
         pyb::object costs, pyb::object comm, pyb::object hold, pyb::object cost_file, pyb::object memory_limit,
         pyb::object cost_per, pyb::object with, pyb::object model, pyb::object layout, pyb::object comms,
         pyb::object link_latency, pyb::object link_bandwidth, pyb::object link_concurrency, pyb::object link_bytes,
         pyb::object link_send_release) {
        ProblemArgs args{P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per, model, layout};
        args.SetComms(comms, link_latency, link_bandwidth, link_concurrency, link_bytes, link_send_release);
        return CompareNamed(schedules, args, with);
      },
      pyb::arg("schedules") = std::vector<std::string>{"gpipe", "1f1b"}, PPSIM_PROBLEM_KWARGS,
      pyb::arg("with_") = pyb::none(), pyb::arg("model") = pyb::none(), pyb::arg("layout") = pyb::none(),
      pyb::arg("comms") = pyb::none(), pyb::arg("link_latency") = pyb::none(), pyb::arg("link_bandwidth") = pyb::none(),
      pyb::arg("link_concurrency") = pyb::none(), pyb::arg("link_bytes") = pyb::none(),
      pyb::arg("link_send_release") = pyb::none(),
      "Simulate several schedules on one problem (`ppsim compare`); with_={\"recompute\": \"full\"} runs each "
      "again with that key set (`--with recompute=full`); model= and layout= as simulate's (a model's layers "
      "summed into a Megatron layout's stages); comms= and link_*= as simulate's (docs/comms.md), or comms under "
      "with_ (with_={\"comms\": \"pytorch\"}: each run again with comm ops). Returns a Comparison.");
}

}  // namespace ppsim::py

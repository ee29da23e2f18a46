// ppsim.search(P=, M=, ..., max_activations=) -> ppsim.SearchResult: what
// `ppsim search` finds, by the same library call (io's RunSearch). str() is
// the CLI's text, to_json() its --json, order(format) its --export.
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "ppsim/render/text_output.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/jobs/search_run.h"
#include "ppsim/jobs/split_report.h"
#include "ppsim/jobs/search_report.h"
#include "problem_args.h"
#include "timeline_py.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// pybind keeps the pointer: the text lives as long as the module.
const std::string kStrDoc = "what `ppsim search` prints: the chart (up to " + std::to_string(jobs::kSearchChartTicks) +
                            " ticks) and the summary line";

struct PySearchResult {
  std::shared_ptr<const jobs::SearchRun> run;

  const SearchResult& result() const { return run->result; }
  Tick makespan() const { return run->run.timeline.makespan; }
  PyTimeline Timeline() const { return PyTimeline(std::shared_ptr<const Run>(run, &run->run)); }
  std::string Text() const { return Unwrap(jobs::SearchReportText(*run, {})); }
  pyb::list FixedSchedules() const {
    pyb::list out;
    for (const SearchSeed& s : result().seeds)
      out.append(pyb::dict(pyb::arg("schedule") = s.name, pyb::arg("makespan") = s.makespan,
                           pyb::arg("fits") = s.fits, pyb::arg("peak") = s.peak));
    return out;
  }
};

// The search's progress callback (about every 0.25 s, after its first
// second) runs Python's signal handlers, so that Ctrl-C stops a long search:
// the KeyboardInterrupt unwinds the search, which holds nothing but memory
// and writes no file, and is what ppsim.search raises.
void CheckSignals(const SearchProgress&) {
  pyb::gil_scoped_acquire locked;
  if (PyErr_CheckSignals() != 0) throw pyb::error_already_set();
}

PySearchResult SearchNamed(const ProblemArgs& args, const pyb::object& max_activations, const pyb::object& placement,
                           const pyb::object& time_limit, const pyb::object& seed) {
  jobs::SearchRequest request;  // None keeps a default
  request.problem = ToOptions(args);
  request.chunks_given = !args.chunks.is_none();
  if (!placement.is_none()) request.placement = TextArg(placement, "placement");
  if (!max_activations.is_none()) request.max_activations = IntText(max_activations, "max_activations");
  if (!time_limit.is_none()) request.time_limit = NumberText(time_limit, "time_limit");
  if (!seed.is_none()) request.seed = IntText(seed, "seed");
  pyb::gil_scoped_release unlocked;  // the search touches no Python object, but for Ctrl-C:
  return PySearchResult{std::make_shared<const jobs::SearchRun>(Unwrap(jobs::RunSearch(request, &CheckSignals)))};
}

// ppsim.search_split: `ppsim search --model ... --json` as a dict, plus "text".
pyb::dict SearchSplit(const pyb::object& model, const pyb::object& P, const pyb::object& M,
                      const pyb::object& memory_limit, const pyb::object& comm, const pyb::object& placement,
                      const pyb::object& chunks, const pyb::object& time_limit, const pyb::object& seed) {
  jobs::SplitRequest r;  // None keeps a default
  const ModelArgument given = ModelArg(model, "model");
  r.model = given.path;
  r.model_json = given.json;
  if (!P.is_none()) r.P = IntText(P, "P");
  if (!M.is_none()) r.M = IntText(M, "M");
  if (!memory_limit.is_none())
    r.memory_limit = PyUnicode_Check(memory_limit.ptr()) ? TextArg(memory_limit, "memory_limit")
                                                         : IntText(memory_limit, "memory_limit");
  if (!comm.is_none()) r.comm = IntText(comm, "comm");
  if (!placement.is_none()) r.placement = TextArg(placement, "placement");
  if (!chunks.is_none()) r.chunks = IntText(chunks, "chunks");
  if (!time_limit.is_none()) r.time_limit = NumberText(time_limit, "time_limit");
  if (!seed.is_none()) r.seed = IntText(seed, "seed");
  Result<jobs::SplitReport> report = [&r] {
    pyb::gil_scoped_release unlocked;  // the search touches no Python object
    return jobs::RunSplitSearch(r);
  }();
  const jobs::SplitReport out = Unwrap(std::move(report));
  pyb::dict d = pyb::module_::import("json").attr("loads")(pyb::bytes(out.json));
  d["text"] = out.text;
  return d;
}

}  // namespace

void BindSearch(pyb::module_& m) {
  using S = PySearchResult;
  pyb::class_<S>(m, "SearchResult", "The shortest schedule found within a memory budget (`ppsim search`).")
      .def_property_readonly("timeline", &S::Timeline, "the best schedule, placed (a Timeline)")
      .def_property_readonly("makespan", &S::makespan)
      .def_property_readonly("lower_bound", [](const S& s) { return s.result().lower_bound; },
                             "no schedule within the budget is shorter")
      .def_property_readonly("gap", [](const S& s) { return jobs::SearchGap(*s.run); },
                             "(makespan - lower_bound) / makespan")
      .def_property_readonly("optimal", [](const S& s) { return s.result().optimal; })
      .def_property_readonly("found_by", [](const S& s) { return s.result().found_by; })
      .def_property_readonly("evaluated", [](const S& s) { return s.result().evaluated; })
      .def_property_readonly("seconds", [](const S& s) { return s.result().seconds; })
      .def_property_readonly("budget", [](const S& s) { return s.result().budget; })
      .def_property_readonly("budget_unit", [](const S& s) { return s.result().budget_unit; })
      .def_property_readonly("peak_per_device", [](const S& s) { return s.result().peak_per_device; })
      .def_property_readonly("fixed_schedules", &S::FixedSchedules,
                             "every fixed schedule tried: dicts schedule, makespan, fits, peak")
      .def_property_readonly("fixed_schedules_not_tried", [](const S& s) { return s.result().seeds_not_tried; },
                             "how many fixed schedules the time limit left untried")
      .def_property_readonly("zb_auto_makespan", [](const S& s) { return s.result().zb_auto; },
                             "the best fitting Zero Bubble greedy's makespan, 0 if none")
      .def(
          "order", [](const S& s, const pyb::object& format) {
            Result<std::string> text = io::ExportSchedule(TextArg(format, "format"), s.run->run.timeline);
            if (!text) throw PyError{text.error().Renamed("format")};  // the library's "export" is this keyword
            return *text;
          },
          pyb::arg("format") = "text", "the order found, as `ppsim search --export FORMAT` writes it (text, pytorch-csv)")
      .def("to_json", [](const S& s) { return jobs::SearchResultJson(*s.run) + "\n"; },
           "the bytes `ppsim search --json` prints")
      .def("__str__", &S::Text, kStrDoc.c_str())
      .def("__repr__", [](const S& s) {
        return "<ppsim.SearchResult makespan=" + std::to_string(s.makespan()) +
               " lower_bound=" + std::to_string(s.result().lower_bound) + ">";
      });
  m.def(
      "search",
      [](pyb::object P, pyb::object M, pyb::object chunks, pyb::object costs, pyb::object comm, pyb::object hold,
         pyb::object cost_file, pyb::object memory_limit, pyb::object cost_per, pyb::object max_activations,
         pyb::object placement, pyb::object time_limit, pyb::object seed, pyb::object comms, pyb::object link_latency,
         pyb::object link_bandwidth, pyb::object link_concurrency, pyb::object link_bytes,
         pyb::object link_send_release) {
        ProblemArgs args{P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per};
        args.SetComms(comms, link_latency, link_bandwidth, link_concurrency, link_bytes, link_send_release);
        return SearchNamed(args, max_activations, placement, time_limit, seed);
      },
      PPSIM_PROBLEM_KWARGS, pyb::arg("max_activations") = pyb::none(), pyb::arg("placement") = "loop",
      pyb::arg("time_limit") = pyb::none(), pyb::arg("seed") = pyb::none(), pyb::arg("comms") = pyb::none(),
      pyb::arg("link_latency") = pyb::none(), pyb::arg("link_bandwidth") = pyb::none(),
      pyb::arg("link_concurrency") = pyb::none(), pyb::arg("link_bytes") = pyb::none(),
      pyb::arg("link_send_release") = pyb::none(),
      "The shortest schedule within a per-device memory budget, with a lower bound (`ppsim search`); returns a "
      "SearchResult. comms= (a lowering rule, as simulate's) with the link_* keywords places every candidate with "
      "its SEND/RECV ops and ranks them by that makespan (docs/search.md, \"With communication\").");
  m.def("search_split", &SearchSplit, pyb::arg("model"), pyb::arg("P") = pyb::none(), pyb::arg("M") = pyb::none(),
        pyb::arg("memory_limit") = pyb::none(), pyb::arg("comm") = pyb::none(), pyb::arg("placement") = pyb::none(),
        pyb::arg("chunks") = pyb::none(), pyb::arg("time_limit") = pyb::none(), pyb::arg("seed") = pyb::none(),
        "A model's split into stages, chunk count, placement and order searched jointly within memory_limit bytes "
        "per device (`ppsim search --model ... --json` as a dict, plus 'text': what it prints). model= is a model "
        "file (TOML, or JSON when it ends in .json) or a dict with the same keys (docs/costs.md).");
}

}  // namespace ppsim::py

// ppsim.check(scene, set={...}, sweep={...}) -> ppsim.CheckResult: what
// `ppsim check` reports; str() is its text, to_json() its --json.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "interrupt.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/check_report.h"

namespace ppsim::py {

namespace pyb = pybind11;

void BindCheck(pyb::module_& m) {
  pyb::class_<scene::CheckReport>(m, "CheckResult", "A scene's claims checked (`ppsim check`).")
      .def_readonly("ok", &scene::CheckReport::ok)
      .def("__bool__", [](const scene::CheckReport& r) { return r.ok; })
      .def("__str__", [](const scene::CheckReport& r) { return r.text; }, "the report `ppsim check` prints")
      .def("to_json", [](const scene::CheckReport& r) { return r.json + "\n"; }, "the bytes `ppsim check --json` prints")
      .def("_repr_html_", [](const scene::CheckReport& r) {
        std::string h = "<pre>";
        for (char c : r.text) h += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
        return h + "</pre>";
      });
  m.def(
      "check",
      [](pyb::object scene_arg, pyb::object set, pyb::object sweep, pyb::object threads_arg) {
        const std::string scene = PathArg(scene_arg, "scene");
        const std::vector<std::string> sets = AssignmentsArg(set, "set", false);
        const std::vector<std::string> sweeps = AssignmentsArg(sweep, "sweep", true);
        const int threads = IntArg(threads_arg, "threads");
        const std::string text = Unwrap(io::ReadFile(scene));
        InterruptWatch interrupt;  // Ctrl-C stops a sweep after each worker's point
        scene::SweepControl control;
        control.progress = [&interrupt](std::int64_t, std::int64_t) { interrupt.Poll(); };
        control.every = 0.1;
        control.stop = interrupt.flag();
        Result<scene::CheckReport> report = [&] {
          pyb::gil_scoped_release unlocked;
          return scene::CheckScene(text, scene, sets, sweeps, threads, "", true, control);
        }();
        interrupt.Raise();
        return Unwrap(std::move(report));
      },
      pyb::arg("scene"), pyb::arg("set") = pyb::none(), pyb::arg("sweep") = pyb::none(), pyb::arg("threads") = 0,
      "Check a scene's claims (`ppsim check`), over a sweep if given; returns a CheckResult.");
}

}  // namespace ppsim::py

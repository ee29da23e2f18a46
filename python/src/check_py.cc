// ppsim.check(scene, set={...}, sweep={...}) -> ppsim.CheckResult: what
// `ppsim check` reports; str() is its text, to_json() its --json.
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/check_report.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// {"P": 8} -> ["P=8"]; sweep {"P": range(1, 9), "comm": [0, 2], "M": "1..4"} -> ["P=1..8", "comm=0,2", "M=1..4"].
std::vector<std::string> Pairs(const pyb::object& values, bool sweep) {
  std::vector<std::string> out;
  if (values.is_none()) return out;
  for (auto [key, value] : values.cast<pyb::dict>()) {
    std::string text;
    if (sweep && pyb::isinstance(value, pyb::module_::import("builtins").attr("range")) &&
        value.attr("step").cast<long long>() == 1 && pyb::len(value) > 0) {
      text = std::string(pyb::str(value.attr("start"))) + ".." + std::to_string(value.attr("stop").cast<long long>() - 1);
    } else if (sweep && !pyb::isinstance<pyb::str>(value)) {
      for (pyb::handle v : value) text += (text.empty() ? "" : ",") + std::string(pyb::str(v));
    } else {
      text = pyb::str(value);
    }
    out.push_back(std::string(pyb::str(key)) + "=" + text);
  }
  return out;
}

}  // namespace

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
      [](const std::string& scene, pyb::object set, pyb::object sweep, int threads) {
        const std::vector<std::string> sets = Pairs(set, false), sweeps = Pairs(sweep, true);
        const std::string text = Unwrap(io::ReadFile(scene));
        pyb::gil_scoped_release unlocked;
        return Unwrap(scene::CheckScene(text, scene, sets, sweeps, threads));
      },
      pyb::arg("scene"), pyb::arg("set") = pyb::none(), pyb::arg("sweep") = pyb::none(), pyb::arg("threads") = 0,
      "Check a scene's claims (`ppsim check`), over a sweep if given; returns a CheckResult.");
}

}  // namespace ppsim::py

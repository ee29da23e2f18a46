// ppsim.explain(paths, step=None, expect=None, equal_stages=False) -> dict:
// `ppsim explain --json` of the same traces, by the same library call
// (jobs::Explain), as a dict with the CLI's keys (docs/explain.md).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ppsim/jobs/explain.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

pyb::object Explain(const pyb::object& paths, const pyb::object& step, const pyb::object& expect, bool equal_stages) {
  std::vector<std::string> files;
  if (pyb::isinstance<pyb::str>(paths) || pyb::hasattr(paths, "__fspath__")) {
    files.push_back(pyb::str(pyb::module_::import("os").attr("fspath")(paths)));
  } else {
    for (const pyb::handle p : paths) files.push_back(pyb::str(pyb::module_::import("os").attr("fspath")(p)));
  }
  jobs::ExplainOptions o;
  if (!step.is_none()) {
    if (!pyb::isinstance<pyb::int_>(step) || step.cast<long long>() < 0)
      throw PyError{Error::Field(ErrorCode::kInvalidValue, "step", " must be a whole number ≥ 0")};
    o.step = step.cast<long long>();
  }
  if (!expect.is_none()) o.expect_file = pyb::str(pyb::module_::import("os").attr("fspath")(expect));
  o.equal_stages = equal_stages;
  std::string text;
  {
    pyb::gil_scoped_release unlocked;
    text = jobs::ExplainJson(Unwrap(jobs::Explain(files, o)));
  }
  return pyb::module_::import("json").attr("loads")(text);
}

}  // namespace

void BindExplain(pyb::module_& m) {
  m.def("explain", &Explain, pyb::arg("paths"), pyb::kw_only(), pyb::arg("step") = pyb::none(),
        pyb::arg("expect") = pyb::none(), pyb::arg("equal_stages") = false,
        "Where a measured pipeline-parallel step's time went: `ppsim explain --json` of the PyTorch profiler "
        "traces in `paths` (a file or folder, or a list of them; one trace per rank), as a dict "
        "(docs/explain.md).");
}

}  // namespace ppsim::py

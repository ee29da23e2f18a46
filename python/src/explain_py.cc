// ppsim.explain(paths, step=None, expect=None, equal_stages=False, output=None) -> dict:
// `ppsim explain --json` of the same traces, by the same library call
// (jobs::Explain), as a dict with the CLI's keys (docs/explain.md); with
// output (a path or a list of them: .svg, .png, .html) the picture of the
// measured run above its ideal is drawn there too (explain_picture.h).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "ppsim/explain_picture/explain_picture.h"
#include "ppsim/jobs/explain.h"
#include "ppsim/render/output_format.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// A path or a list of them, as strings.
std::vector<std::string> Paths(const pyb::object& paths) {
  std::vector<std::string> files;
  if (pyb::isinstance<pyb::str>(paths) || pyb::hasattr(paths, "__fspath__")) {
    files.push_back(pyb::str(pyb::module_::import("os").attr("fspath")(paths)));
  } else {
    for (const pyb::handle p : paths) files.push_back(pyb::str(pyb::module_::import("os").attr("fspath")(p)));
  }
  return files;
}

pyb::object Explain(const pyb::object& paths, const pyb::object& step, const pyb::object& expect, bool equal_stages,
                    const pyb::object& output) {
  const std::vector<std::string> files = Paths(paths);
  const std::vector<std::string> pictures = output.is_none() ? std::vector<std::string>{} : Paths(output);
  for (const std::string& p : pictures)
    if (!jobs::IsExplainPicture(p))
      throw PyError{
          Error::Field(ErrorCode::kUsage, "output", ": " + p + " is no picture (" + render::StillPictures() + ")")};
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
    const jobs::ExplainReport report = Unwrap(jobs::Explain(files, o));
    if (!pictures.empty()) {
      if (Error e = explain_picture::WritePictures(report, pictures); !e.ok()) throw PyError{e};
    }
    text = jobs::ExplainJson(report);
  }
  return pyb::module_::import("json").attr("loads")(text);
}

}  // namespace

void BindExplain(pyb::module_& m) {
  static const std::string doc =
      "Where a measured pipeline-parallel step's time went: `ppsim explain --json` of the PyTorch profiler "
      "traces in `paths` (a file or folder, or a list of them; one trace per rank), or of one ppsim timeline "
      "or Megatron-LM timers log, as a dict "
      "(docs/explain.md); with `output` (a path or a list: " +
      render::StillPictures() + ") the measured run is drawn above its ideal there too.";
  m.def("explain", &Explain, pyb::arg("paths"), pyb::kw_only(), pyb::arg("step") = pyb::none(),
        pyb::arg("expect") = pyb::none(), pyb::arg("equal_stages") = false, pyb::arg("output") = pyb::none(),
        doc.c_str());
}

}  // namespace ppsim::py

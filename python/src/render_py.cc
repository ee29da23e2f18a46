// ppsim.render(scene, out, ...) -> ppsim.RenderResult: what `ppsim render`
// does, through the same RenderScene (include/ppsim/scene/render_scene.h).
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "interrupt.h"
#include "metrics_py.h"
#include "ppsim/render/output_format.h"
#include "ppsim/render/render_settings.h"
#include "ppsim/scene/render_scene.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// "1280x720" or (1280, 720): a pair is written as the flag's text, so that
// the settings table checks it as it checks the CLI's --size.
std::string SizeText(const pyb::object& size) {
  if (PyUnicode_Check(size.ptr())) return Utf8(size, "size");
  if ((!PyTuple_Check(size.ptr()) && !PyList_Check(size.ptr())) || pyb::len(size) != 2)
    WrongType("size", "\"WIDTHxHEIGHT\" or a (width, height) pair", size);
  const pyb::sequence pair = size.cast<pyb::sequence>();
  return IntText(pair[0], "size[0]") + "x" + IntText(pair[1], "size[1]");
}

const std::string& RenderDoc() {
  static const std::string doc =
      "Check a scene's claims, then draw it (`ppsim render`): `out` is a path or a list of paths whose "
      "extensions name the formats (" + render::PictureExtensions() + "). A false claim raises ppsim.Error "
      "(code 11) and writes nothing. gauge: \"cluster\" (one gauge per run) or \"device\" (one per device); "
      "\"\" is the scene's [render] gauge. Returns a RenderResult.";
  return doc;
}

void Set(const char* name, const KeyValue& value, scene::SceneRenderOptions& o) {
  Check(render::SetRenderSetting(name, value, o.settings));
}

pyb::list Outputs(const scene::SceneRenderReport& r) {
  pyb::list out;
  for (const scene::RenderedOutput& o : r.outputs) {
    pyb::dict d;
    d["path"] = PathStr(o.path);
    d["width"] = o.width;
    d["height"] = o.height;
    d["ticks"] = o.ticks;
    if (o.video) {
      d["fps"] = o.fps;
      d["seconds"] = o.seconds;
    }
    out.append(d);
  }
  return out;
}

scene::SceneRenderOptions Options(const pyb::object& out, const pyb::object& size, const pyb::object& fps,
                                  const pyb::object& display_width, const pyb::object& width,
                                  const pyb::object& at_tick, const pyb::object& animated, const pyb::object& format,
                                  const pyb::object& gauge) {
  scene::SceneRenderOptions o;
  o.outputs = PathListArg(out, "out");
  // Through render_settings.h's table, as the CLI's flags and a scene's
  // [render]. 0, None and "" are the scene's [render] value, else the default.
  if (!size.is_none()) Set("size", KeyValue::Other(SizeText(size)), o);
  auto whole = [&](const pyb::object& v, const char* keyword) {
    if (v.is_none()) return;
    const int n = IntArg(v, keyword);
    if (n != 0) Set(keyword, KeyValue::Int(n), o);
  };
  whole(fps, "fps");
  whole(display_width, "display_width");
  whole(width, "width");
  if (!at_tick.is_none()) Set("at_tick", KeyValue::Int(TickArg(at_tick, "at_tick")), o);
  if (!gauge.is_none()) {
    const std::string g = TextArg(gauge, "gauge");
    if (!g.empty()) Set("gauge", KeyValue::Other(g), o);
  }
  o.animated = BoolArg(animated, "animated");
  o.format = format.is_none() ? std::string() : TextArg(format, "format");
  return o;
}

}  // namespace

void BindRender(pyb::module_& m) {
  pyb::class_<scene::SceneRenderReport>(m, "RenderResult", "What `ppsim render` wrote, and the runs it drew.")
      .def_property_readonly("outputs", &Outputs,
          "one dict per file written: path, width, height, ticks (and fps, seconds for videos)")
      .def_property_readonly(
          "runs",
          [](const scene::SceneRenderReport& r) {
            pyb::dict out;
            for (const Run& run : r.runs) out[pyb::str(run.name)] = MetricDict(run.metrics, run.timeline.problem);
            return out;
          },
          "{run name: {metric's JSON key: value}}, every metric as render --json has it")
      .def_readonly("closing", &scene::SceneRenderReport::closing, "the scene's closing lines, filled from the runs")
      .def("to_json", [](const scene::SceneRenderReport& r) { return scene::SceneRenderJson(r) + "\n"; },
           "the bytes `ppsim render --json` prints")
      .def("__str__", [](const scene::SceneRenderReport& r) {
        std::string s;
        for (const std::string& line : r.closing) s += line + "\n";
        return s;
      });
  m.def(
      "render",
      [](pyb::object scene_arg, pyb::object out, pyb::object set, pyb::object size, pyb::object fps,
         pyb::object display_width, pyb::object width, pyb::object at_tick, pyb::object animated, pyb::object format,
         pyb::object gauge) {
        const std::string scene = PathArg(scene_arg, "scene");
        const scene::SceneRenderOptions o =
            Options(out, size, fps, display_width, width, at_tick, animated, format, gauge);
        const std::vector<std::string> overrides = AssignmentsArg(set, "set", false);
        std::vector<std::string> false_claims;
        InterruptWatch interrupt;  // Ctrl-C stops a long video at its next image
        Result<scene::SceneRenderReport> report = [&] {
          scene::SceneRenderOptions watched = o;
          watched.cancelled = [&interrupt] { return interrupt.Poll(); };
          pyb::gil_scoped_release unlocked;
          return scene::RenderScene(scene, overrides, watched, &false_claims);
        }();
        interrupt.Raise();
        if (!report && !false_claims.empty()) {
          // One line: the summary, then each false claim.
          std::string message = report.error().Text();
          for (const std::string& line : false_claims) message += "; " + line;
          throw PyError{Fail(report.error().code, message)};
        }
        return Unwrap(std::move(report));
      },
      pyb::arg("scene"), pyb::arg("out"), pyb::arg("set") = pyb::none(), pyb::arg("size") = pyb::none(),
      pyb::arg("fps") = 0, pyb::arg("display_width") = 0, pyb::arg("width") = 0, pyb::arg("at_tick") = pyb::none(),
      pyb::arg("animated") = false, pyb::arg("format") = "", pyb::arg("gauge") = "",
      RenderDoc().c_str());
}

}  // namespace ppsim::py

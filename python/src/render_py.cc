// ppsim.render(scene, out, ...) -> ppsim.RenderResult: what `ppsim render`
// does, through the same RenderScene (include/ppsim/scene/render_scene.h).
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "errors.h"
#include "metrics_py.h"
#include "ppsim/scene/render_scene.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

// {"P": 8} -> ["P=8"].
std::vector<std::string> Overrides(const pyb::object& values) {
  std::vector<std::string> out;
  if (values.is_none()) return out;
  for (auto [key, value] : values.cast<pyb::dict>()) {
    out.push_back(std::string(pyb::str(key)) + "=" + std::string(pyb::str(value)));
  }
  return out;
}

// "1280x720" or (1280, 720).
std::pair<int, int> Size(const pyb::object& size) {
  if (pyb::isinstance<pyb::str>(size)) return Unwrap(scene::ParseFrameSize(size.cast<std::string>(), "size"));
  auto [w, h] = size.cast<std::pair<int, int>>();
  return {w, h};
}

}  // namespace

void BindRender(pyb::module_& m) {
  pyb::class_<scene::SceneRenderReport>(m, "RenderResult", "What `ppsim render` wrote, and the runs it drew.")
      .def_property_readonly(
          "outputs",
          [](const scene::SceneRenderReport& r) {
            pyb::list out;
            for (const scene::RenderedOutput& o : r.outputs) {
              pyb::dict d;
              d["path"] = o.path;
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
          },
          "one dict per file written: path, width, height, ticks (and fps, seconds for videos)")
      .def_property_readonly(
          "runs",
          [](const scene::SceneRenderReport& r) {
            pyb::dict out;
            for (const RunResult& run : r.runs) out[pyb::str(run.name)] = MetricDict(run.metrics, run.timeline.problem);
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
      [](const std::string& scene, pyb::object out, pyb::object set, pyb::object size, int fps, int display_width,
         int width, std::optional<Tick> at_tick, bool animated, const std::string& format, const std::string& gauge) {
        scene::SceneRenderOptions o;
        if (pyb::isinstance<pyb::str>(out)) {
          o.outputs.push_back(out.cast<std::string>());
        } else {
          o.outputs = out.cast<std::vector<std::string>>();
        }
        if (!size.is_none()) o.size = Size(size);
        o.fps = fps;
        o.display_width = display_width;
        o.text_columns = width;
        o.at_tick = at_tick;
        o.animated = animated;
        o.format = format;
        o.gauge = gauge;
        const std::vector<std::string> overrides = Overrides(set);
        std::vector<std::string> false_claims;
        Result<scene::SceneRenderReport> report = [&] {
          pyb::gil_scoped_release unlocked;
          return scene::RenderScene(scene, overrides, o, &false_claims);
        }();
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
      "Check a scene's claims, then draw it (`ppsim render`): `out` is a path or a list of paths whose "
      "extensions name the formats (.mp4 .webm .gif .svg .png .html). A false claim raises ppsim.Error "
      "(code 11) and writes nothing. gauge: \"cluster\" (one gauge per run) or \"device\" (one per device); "
      "\"\" is the scene's [render] gauge. Returns a RenderResult.");
}

}  // namespace ppsim::py

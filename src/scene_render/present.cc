#include "ppsim/scene/present.h"

#include <string>
#include <tuple>

#include "ppsim/claim_template.h"

namespace ppsim::scene {
namespace {

Result<std::string> Fill(const std::string& tmpl, const std::vector<Run>& runs, const Scene& scene,
                         const std::string& what) {
  Result<std::string> s = FillTemplate(tmpl, runs, scene.params);
  if (!s) return s.error().With(what).At(scene.path);
  return s;
}

// The words of the scene, filled from its runs.
Error FillWords(const Scene& scene, const std::vector<Run>& runs, render::LayoutInput* input) {
  for (auto [tmpl, dest, what] : {std::tuple{&scene.title, &input->title, "title"},
                                  std::tuple{&scene.subtitle, &input->subtitle, "subtitle"}}) {
    Result<std::string> s = Fill(*tmpl, runs, scene, what);
    if (!s) return s.error();
    *dest = *s;
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    Result<std::string> caption = Fill(scene.runs[i].caption, runs, scene, "run " + r.name + ": caption");
    if (!caption) return caption.error();
    input->runs.push_back({&r, *caption});
  }
  for (size_t i = 0; i < scene.closing.size(); ++i) {
    Result<std::string> line = Fill(scene.closing[i], runs, scene, "closing line " + std::to_string(i + 1));
    if (!line) return line.error();
    input->closing.push_back(*line);
  }
  return Error::Ok();
}

}  // namespace

Result<render::LayoutInput> Present(const Scene& scene, const std::vector<Run>& runs) {
  render::LayoutInput input;
  if (Error e = FillWords(scene, runs, &input); e.code != ErrorCode::kOk) return e;
  const render::RenderSettings& r = scene.render;  // checked when the scene was loaded
  input.width = r.width.value_or(input.width);
  input.height = r.height.value_or(input.height);
  input.display_width = r.display_width.value_or(0);
  input.gauge = r.gauge.value_or(render::GaugeMode::kFullest);
  input.ns_ticks = scene.traces;  // measured runs (trace = "DIR/"): ns ticks
  return input;
}

}  // namespace ppsim::scene

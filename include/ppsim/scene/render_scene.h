// Rendering a scene: load it, simulate its runs, check its claims, fill its
// words from the runs, and draw it into one or more files. `ppsim render` and
// Python's `ppsim.render` are this function and nothing else.
//
// A picture of something false is never produced: when a claim does not
// hold, nothing is written, and the error lists the false claims. Outputs are
// all-or-none: every file is drawn into a temporary beside it first, and only
// when all of them are drawn are they moved into place.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"
#include "ppsim/render/render_settings.h"
#include "ppsim/render/video.h"
#include "ppsim/scene/scene.h"

namespace ppsim::scene {

struct SceneRenderOptions {
  std::vector<std::string> outputs;  // paths; "-" (alone) is stdout
  std::string format;                // with one output: overrides its extension ("text", "svg", ...)
  // size, fps, display_width, gauge, width (text columns), at_tick: each
  // set through render::SetRenderSetting (render_settings.h), and winning
  // over the scene's [render] table; the table's defaults fill the rest.
  render::RenderSettings settings;
  bool animated = false;             // .svg: SMIL animation
  bool progress = false;             // videos: a progress line on stderr
  render::Mp4Coding mp4 = render::Mp4Coding::kSplice;  // .mp4: repeats spliced in, or every frame encoded
  bool text_color = false;           // text: ANSI colours
  // Asked between outputs and between a video's images (may be empty): true
  // stops the render with kInterrupted, every earlier file kept as it was.
  std::function<bool()> cancelled;
};

struct RenderedOutput {
  std::string path;  // as given ("-" for stdout)
  int width = 0;
  int height = 0;
  Tick ticks = 0;    // the last tick drawn
  bool video = false;
  int fps = 0;           // videos only
  double seconds = 0;    // videos only
};

struct SceneRenderReport {
  std::vector<RenderedOutput> outputs;
  std::vector<Run> runs;
  std::vector<std::string> closing;  // the closing lines, filled from the runs
};

// Errors name fields ("fps", "display_width", "gauge", "text_columns", "at_tick",
// "outputs"), not flags. When claims are false the error is kClaimFalse and,
// if `false_claims` is given, it receives one line per false claim
// ("scene.toml:7: <explanation>").
Result<SceneRenderReport> RenderScene(const std::string& scene_path, const std::vector<std::string>& overrides,
                                      const SceneRenderOptions& options,
                                      std::vector<std::string>* false_claims = nullptr);

// `ppsim render --json`: {"outputs": [...], "runs": [...], "closing": [...]}.
std::string SceneRenderJson(const SceneRenderReport& report);

}  // namespace ppsim::scene

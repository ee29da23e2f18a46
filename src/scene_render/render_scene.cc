// RenderScene: load → simulate → check claims → present → stage every
// output → lay out once per frame size, draw each → commit all. See include/ppsim/scene/render_scene.h.
#include "ppsim/scene/render_scene.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <tuple>

#include "simulation_tree.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/render/pacing.h"
#include "ppsim/render/render.h"
#include "ppsim/scene/present.h"

namespace ppsim::scene {
namespace {

Error CheckOptions(const SceneRenderOptions& o) {
  if (o.outputs.empty()) {
    return Fail(ErrorCode::kUsage, "say where to write: an output (" + render::PictureExtensions() + ", or - with format text)");
  }
  return Error::Ok();
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); !from.empty() && at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// Where each output is drawn, created before any drawing so that an
// unwritable output fails first: stdout directly, every file (a device too)
// into a temporary that only CommitAll moves into place.
Result<std::vector<io::OutputFile>> StageAll(const std::vector<std::string>& outputs) {
  std::vector<io::OutputFile> staged;
  for (const std::string& path : outputs) {
    Result<io::OutputFile> file = io::OutputFile::Open(path, io::OutputFile::Devices::kStaged);
    if (!file) return file.error();
    staged.push_back(std::move(*file));
  }
  return staged;
}

// Devices and FIFOs first: their write is the one that can fail (a full
// disk behind /dev/full, a closed pipe), and nothing can be taken back from
// them; the renames of regular files come after, so a failed device write
// leaves every file as it was.
Error CommitAll(std::vector<io::OutputFile>& staged) {
  for (bool streams : {true, false}) {
    for (io::OutputFile& file : staged) {
      if (file.ToStream() != streams) continue;
      if (Error e = file.Commit(); e.code != ErrorCode::kOk) return e;
    }
  }
  return Error::Ok();
}

// Claims first: a picture of something false is never produced. kClaimFalse
// when one is false, with one line per false claim into *false_claims.
Error RefuseFalseClaims(const Scene& scene, const std::vector<Run>& runs, std::vector<std::string>* false_claims) {
  Result<std::vector<ClaimResult>> claims = CheckSceneClaims(scene, runs);
  if (!claims) return claims.error();
  if (AllHold(*claims)) return Error::Ok();
  size_t failed = 0;
  for (size_t i = 0; i < claims->size(); ++i) {
    if ((*claims)[i].holds) continue;
    ++failed;
    if (false_claims) {
      false_claims->push_back(scene.path + ":" + std::to_string(scene.claims[i].pos.line) + ": " +
                              (*claims)[i].Explain());
    }
  }
  return Fail(ErrorCode::kClaimFalse, std::to_string(failed) + " claim(s) false in " + scene.path + ": nothing rendered");
}

// Every output's format, known before any work is done.
Result<std::vector<render::OutputFormat>> Formats(const SceneRenderOptions& o) {
  std::vector<render::OutputFormat> formats;
  for (const std::string& out : o.outputs) {
    // A directory's name says nothing about a format: say what it is instead.
    struct stat st {};
    if (out != "-" && (out.back() == '/' || (stat(out.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))) {
      return Fail(ErrorCode::kIo, "cannot write " + io::DisplayPath(out) +
                                      (out.back() == '/' ? ": the name ends in '/', so it names a directory"
                                                         : ": it is a directory"));
    }
    Result<render::OutputFormat> f = render::FormatFor(out, o.outputs.size() == 1 ? o.format : "");
    if (!f) return f.error();
    if (o.settings.at_tick && render::IsVideo(*f)) {
      return Error::Field(ErrorCode::kUsage, "at_tick", " picks one frame: use it with " + render::OneFrameFormats());
    }
    if (*f != render::OutputFormat::kText && out == "-") {
      return render::StdoutNeedsText();
    }
    formats.push_back(*f);
  }
  if (o.animated && std::find(formats.begin(), formats.end(), render::OutputFormat::kSvg) == formats.end()) {
    return Error::Field(ErrorCode::kUsage, "animated",
                        " draws an animated SVG: give an .svg output (a PNG, a page, text or a video cannot hold one)");
  }
  return formats;
}

// Draws `input` into every output, all or none: each into a temporary staged
// beside it first, all moved into place once all are drawn. Outputs of one
// frame size and display width share one layout.
Result<std::vector<RenderedOutput>> DrawAll(render::LayoutInput input, const std::vector<render::OutputFormat>& formats,
                                            const SceneRenderOptions& o, int fps) {
  Result<std::vector<io::OutputFile>> staged = StageAll(o.outputs);
  if (!staged) return staged.error();
  struct Laid {
    std::pair<int, int> frame;  // the input's size it was laid out for
    render::RenderOptions options;
    render::DisplayList list;
  };
  std::vector<Laid> laid;
  std::vector<RenderedOutput> drawn;
  const std::pair<int, int> size{input.width, input.height};
  for (size_t i = 0; i < o.outputs.size(); ++i) {
    render::RenderOptions ro;
    ro.format = formats[i];
    ro.fps = fps;
    ro.at_tick = o.settings.at_tick;
    ro.animated = o.animated;
    ro.text_columns = o.settings.text_columns.value_or(0);
    ro.text_color = o.text_color && o.outputs[i] == "-";
    ro.progress = o.progress && render::IsVideo(formats[i]);
    ro.mp4 = o.mp4;
    ro.cancelled = o.cancelled;
    if (o.cancelled && o.cancelled()) return Fail(ErrorCode::kInterrupted, "interrupted; nothing written");
    input.width = size.first;
    input.height = size.second;
    if (render::IsVideo(formats[i])) {  // yuv420p needs even sizes
      input.width += input.width % 2;
      input.height += input.height % 2;
    }
    auto same = [&](const Laid& l) {
      return l.frame == std::make_pair(input.width, input.height) && render::SameLayout(l.options, ro, input);
    };
    auto it = std::find_if(laid.begin(), laid.end(), same);
    if (it == laid.end()) {
      Result<render::DisplayList> list = render::LayOut(input, ro);
      if (!list) return list.error();
      it = laid.insert(laid.end(), Laid{{input.width, input.height}, ro, std::move(*list)});
    }
    const render::DisplayList& list = it->list;
    const std::string& into = (*staged)[i].into();
    if (Error e = render::Paint(list, into, ro); e.code != ErrorCode::kOk) {
      return Fail(e.code, Replace(e.message, into, io::DisplayPath(o.outputs[i])));
    }
    RenderedOutput out{.path = o.outputs[i], .width = list.width, .height = list.height, .ticks = list.last_tick};
    out.video = render::IsVideo(formats[i]);
    if (out.video) {
      out.fps = fps;
      out.seconds = static_cast<double>(render::PaceFor(list.last_tick, fps).TotalFrames(list.last_tick)) / fps;
    }
    drawn.push_back(out);
  }
  if (Error e = CommitAll(*staged); e.code != ErrorCode::kOk) return e;
  return drawn;
}

}  // namespace

Result<SceneRenderReport> RenderScene(const std::string& scene_path, const std::vector<std::string>& overrides,
                                      const SceneRenderOptions& o, std::vector<std::string>* false_claims) {
  if (Error e = CheckOptions(o); e.code != ErrorCode::kOk) return e;
  Result<std::vector<render::OutputFormat>> formats = Formats(o);
  if (!formats) return formats.error();
  Result<Scene> scene = LoadScene(scene_path, overrides);
  if (!scene) return scene.error();
  std::vector<Problem> problems;
  for (const SceneRun& run : scene->runs) problems.push_back(run.problem);
  if (Error e = render::CheckRenderSize(problems); e.code != ErrorCode::kOk) return e;
  SceneRenderReport report;
  Result<std::vector<Run>> runs = SimulateScene(*scene);
  if (!runs) return runs.error();
  report.runs = std::move(*runs);
  if (Error e = RefuseFalseClaims(*scene, report.runs, false_claims); e.code != ErrorCode::kOk) return e;
  Result<render::LayoutInput> input = Present(*scene, report.runs);
  if (!input) return input.error();
  report.closing = input->closing;

  // The options win over the scene's [render] table (which Present read).
  const render::RenderSettings& given = o.settings;
  if (given.width) input->width = *given.width;
  if (given.height) input->height = *given.height;
  if (given.display_width) input->display_width = *given.display_width;
  if (given.gauge) input->gauge = *given.gauge;
  const int fps = given.fps.value_or(scene->render.fps.value_or(30));
  Result<std::vector<RenderedOutput>> drawn = DrawAll(std::move(*input), *formats, o, fps);
  if (!drawn) return drawn.error();
  report.outputs = std::move(*drawn);
  return report;
}

std::string SceneRenderJson(const SceneRenderReport& report) {
  nlohmann::json outputs = nlohmann::json::array();
  for (const RenderedOutput& o : report.outputs) {
    nlohmann::json out = {{"path", io::DisplayPath(o.path)}, {"width", o.width}, {"height", o.height}, {"ticks", o.ticks}};
    if (o.video) {
      out["fps"] = o.fps;
      out["seconds"] = o.seconds;
    }
    outputs.push_back(out);
  }
  nlohmann::json runs = nlohmann::json::array();
  for (const Run& r : report.runs) {
    nlohmann::json run = {{"name", r.name}};
    io::AddMetricsJson(r.metrics, r.timeline.problem, run);  // every metric of the table, as simulate --json
    runs.push_back(std::move(run));
  }
  const nlohmann::json j = {{"outputs", outputs}, {"runs", runs}, {"closing", report.closing}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ppsim::scene

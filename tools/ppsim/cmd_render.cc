// ppsim render SCENE -o OUT [-o OUT2 ...] [--set KEY=VALUE ...] [--size WxH] [--fps N]
//               [--display-width PX] [--width COLUMNS] [--at-tick T] [--animated] [--format text] [--json]
//
// Loads and simulates the scene, checks its claims FIRST (a false claim
// writes nothing), fills the words from the runs, then lays the scene out
// once per output and paints it in the format OUT's extension names.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "command.h"
#include "ppsim/atomic_file.h"
#include "ppsim/render/pacing.h"
#include "ppsim/render/render.h"
#include "ppsim/scene.h"

namespace ppsim::cli {
namespace {

struct RenderCliOptions {
  std::string scene;
  std::vector<std::string> out;
  std::vector<std::string> set;
  std::string size;
  int fps = 0;  // 0 = the scene's [render] fps, else 30
  int display_width = 0;  // 0 = the scene's [render] display_width, else the format's default
  int width = 0;          // text: columns (0 = the terminal's, else 100)
  std::optional<Tick> at_tick;
  bool animated = false;
  std::string format;
  bool json = false;
};

// "1920x1080" -> (1920, 1080).
Result<std::pair<int, int>> ParseSize(const std::string& text) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w < 16 ||
      h < 16 || w > 16384 || h > 16384) {
    return Fail(ErrorCode::kInvalidValue, "--size \"" + text + "\" must be WIDTHxHEIGHT, each 16..16384 (e.g. 1920x1080)");
  }
  return std::make_pair(w, h);
}

Result<std::string> Fill(const std::string& tmpl, const std::vector<RunResult>& runs, const Scene& scene,
                         const std::string& what) {
  Result<std::string> s = FillTemplate(tmpl, runs, scene.params);
  if (!s) return Fail(s.error().code, scene.path + ": " + what + ": " + s.error().message);
  return s;
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); !from.empty() && at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// One temporary per output file ("" for stdout), all created before any
// drawing, so an unwritable output fails first.
Result<std::vector<std::string>> StageAll(const std::vector<std::string>& outputs) {
  std::vector<std::string> staged;
  for (const std::string& path : outputs) {
    MakeTourFolder(path);
    Result<std::string> tmp = path == "-" ? Result<std::string>(std::string()) : StageOutput(path);
    if (!tmp) {
      for (const std::string& t : staged)
        if (!t.empty()) DiscardStaged(t);
      return tmp.error();
    }
    staged.push_back(*tmp);
  }
  return staged;
}

int Run(const RenderCliOptions& o) {
  if (o.fps != 0 && (o.fps < 1 || o.fps > 240)) {
    return Report(Fail(ErrorCode::kInvalidValue, "--fps " + std::to_string(o.fps) + " is outside 1..240"));
  }
  if (o.display_width != 0 && (o.display_width < 16 || o.display_width > 16384)) {
    return Report(Fail(ErrorCode::kInvalidValue,
                       "--display-width " + std::to_string(o.display_width) + " is outside 16..16384"));
  }
  if (o.width != 0 && (o.width < 20 || o.width > 100000)) {
    return Report(Fail(ErrorCode::kInvalidValue, "--width " + std::to_string(o.width) + " is outside 20..100000"));
  }
  if (o.out.empty()) return Report(Fail(ErrorCode::kUsage, "render: say where to write: -o OUT (.mp4 .webm .gif .svg .png .html, or - with --format text)"));
  // Every output's format is known before any work is done.
  std::vector<render::OutputFormat> formats;
  for (const std::string& out : o.out) {
    Result<render::OutputFormat> f = render::FormatFor(out, o.out.size() == 1 ? o.format : "");
    if (!f) return Report(f.error());
    if (o.at_tick && render::IsVideo(*f)) {
      return Report(Fail(ErrorCode::kUsage, "--at-tick picks one frame: use it with .png, .svg, .html or --format text"));
    }
    formats.push_back(*f);
  }

  Result<Scene> scene = LoadScene(o.scene, o.set);
  if (!scene) return Report(scene.error());
  Result<std::vector<RunResult>> runs = SimulateScene(*scene);
  if (!runs) return Report(runs.error());

  // Claims first: a picture of something false is never produced.
  Result<std::vector<ClaimResult>> claims = CheckSceneClaims(*scene, *runs);
  if (!claims) return Report(claims.error());
  if (!AllHold(*claims)) {
    size_t failed = 0;
    for (size_t i = 0; i < claims->size(); ++i) {
      if ((*claims)[i].holds) continue;
      ++failed;
      std::fprintf(stderr, "ppsim: %s:%d: %s\n", o.scene.c_str(), scene->claims[i].pos.line,
                   (*claims)[i].Explain().c_str());
    }
    return Report(Fail(ErrorCode::kClaimFalse, std::to_string(failed) + " claim(s) false in " + o.scene +
                                                   ": nothing rendered"));
  }

  render::LayoutInput input;
  for (auto [tmpl, dest, what] : {std::tuple{&scene->title, &input.title, "title"},
                                  std::tuple{&scene->subtitle, &input.subtitle, "subtitle"}}) {
    Result<std::string> s = Fill(*tmpl, *runs, *scene, what);
    if (!s) return Report(s.error());
    *dest = *s;
  }
  for (const RunResult& r : *runs) {
    Result<std::string> caption = Fill(r.caption, *runs, *scene, "run " + r.name + ": caption");
    if (!caption) return Report(caption.error());
    input.runs.push_back({r.name, *caption, &r.timeline, &r.metrics});
  }
  for (size_t i = 0; i < scene->closing.size(); ++i) {
    Result<std::string> line = Fill(scene->closing[i], *runs, *scene, "closing line " + std::to_string(i + 1));
    if (!line) return Report(line.error());
    input.closing.push_back(*line);
  }

  // Size and pace: the flags, else the scene's [render] table (checked when
  // it was loaded), else 1920x1080 at 30 fps.
  std::pair<int, int> size{scene->render.width.value_or(1920), scene->render.height.value_or(1080)};
  if (!o.size.empty()) {
    Result<std::pair<int, int>> s = ParseSize(o.size);
    if (!s) return Report(s.error());
    size = *s;
  }
  const int fps = o.fps != 0 ? o.fps : scene->render.fps.value_or(30);
  const int display_width = o.display_width != 0 ? o.display_width : scene->render.display_width.value_or(0);

  // All or nothing: every output is drawn into a temporary first, and only
  // when all of them are done are they moved into place.
  Result<std::vector<std::string>> staged = StageAll(o.out);
  if (!staged) return Report(staged.error());
  auto discard = [&staged] {
    for (const std::string& tmp : *staged)
      if (!tmp.empty()) DiscardStaged(tmp);
  };
  nlohmann::json outputs = nlohmann::json::array();
  for (size_t i = 0; i < o.out.size(); ++i) {
    render::RenderOptions ro;
    ro.format = formats[i];
    ro.fps = fps;
    ro.at_tick = o.at_tick;
    ro.animated = o.animated;
    ro.display_width = display_width;
    ro.text_columns = o.width;
    ro.progress = render::IsVideo(formats[i]) && isatty(STDERR_FILENO);
    if (o.out[i] == "-" && isatty(STDOUT_FILENO)) {
      ro.text_color = true;
      winsize ws{};
      if (o.width == 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) ro.text_columns = ws.ws_col;
    }
    input.width = size.first;
    input.height = size.second;
    if (render::IsVideo(formats[i])) {  // yuv420p needs even sizes
      input.width += input.width % 2;
      input.height += input.height % 2;
    }
    const std::string& into = (*staged)[i].empty() ? o.out[i] : (*staged)[i];
    Result<render::DisplayList> list = render::RenderToFile(input, into, ro);
    if (!list) {
      discard();
      return Report(Fail(list.error().code, Replace(list.error().message, into, DisplayPath(o.out[i]))));
    }
    const render::Pacing pacing = render::PaceFor(list->last_tick, fps);
    nlohmann::json out = {{"path", DisplayPath(o.out[i])}, {"width", list->width}, {"height", list->height},
                          {"ticks", list->last_tick}};
    if (render::IsVideo(formats[i])) {
      out["fps"] = fps;
      out["seconds"] = static_cast<double>(pacing.TotalFrames(list->last_tick)) / fps;
    }
    outputs.push_back(out);
  }
  for (size_t i = 0; i < o.out.size(); ++i) {
    if ((*staged)[i].empty()) continue;
    Error e = CommitStaged((*staged)[i], o.out[i]);
    (*staged)[i].clear();
    if (e.code != ErrorCode::kOk) {
      discard();
      return Report(e);
    }
    if (!o.json) std::fprintf(stderr, "ppsim: wrote %s\n", DisplayPath(o.out[i]).c_str());
  }
  if (o.out.size() == 1 && o.out[0] == "-") return 0;  // stdout holds the picture
  if (o.json) {
    nlohmann::json runs_json = nlohmann::json::array();
    for (const RunResult& r : *runs) {
      runs_json.push_back({{"name", r.name}, {"makespan", r.metrics.makespan}, {"idle", r.metrics.idle},
                           {"busy", r.metrics.busy}, {"peak_activations", r.metrics.peak_activations}});
    }
    const nlohmann::json j = {{"outputs", outputs}, {"runs", runs_json}, {"closing", input.closing}};
    if (Error e = WriteFileAtomically("-", DumpJson(j) + "\n"); e.code != ErrorCode::kOk) return Report(e);
    return 0;
  }
  std::string closing;
  for (const std::string& line : input.closing) closing += line + "\n";
  if (Error e = WriteFileAtomically("-", closing); e.code != ErrorCode::kOk) return Report(e);
  return 0;
}

const CommandRegistrar registrar(50, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<RenderCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "render", "check a scene's claims, then draw it: .mp4 .webm .gif .svg .png .html, or text (-o - --format text)");
  cmd->add_option("scene", o->scene, "scene file (TOML)")->required();
  cmd->add_option("-o,--output", o->out, "output file, format from its extension (repeatable); - for stdout")
      ->take_all();
  cmd->add_option("--set", o->set, "override a top-level value: --set P=8 (repeatable)")->take_all();
  cmd->add_option("--size", o->size, "frame size WIDTHxHEIGHT (default: the scene's [render] size, else 1920x1080)");
  cmd->add_option("--fps", o->fps, "video frames per second (default 30)");
  cmd->add_option("--display-width", o->display_width,
                  "pixels wide the picture will be viewed at: text is sized and checked for that width "
                  "(default: the scene's [render] display_width, else 760 for .html, else the frame width)");
  cmd->add_option("--width", o->width, "text: columns (default: the terminal's width, else 100)");
  cmd->add_option("--at-tick", o->at_tick, "the frame at this tick instead of the final one (.png .svg text); .html opens there");
  cmd->add_flag("--animated", o->animated, ".svg: an animated SVG (SMIL) instead of the final frame");
  cmd->add_option("--format", o->format, "mp4, webm, gif, svg, png, html or text (default: from -o's extension)");
  cmd->add_flag("--json", o->json, "print what was written and the runs' numbers as one JSON object");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

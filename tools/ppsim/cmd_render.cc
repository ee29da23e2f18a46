// ppsim render SCENE -o OUT [-o OUT2 ...] [--set KEY=VALUE ...] [--size WxH] [--fps N]
//               [--display-width PX] [--gauge fullest|cluster|device] [--width COLUMNS] [--at-tick T] [--animated] [--mp4-coding splice|every-frame] [--format text] [--json]
//
// Parses the flags and calls RenderScene (include/ppsim/scene/render_scene.h),
// which checks the claims first (a false claim writes nothing), then draws
// every output, all or none.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/render_limits.h"
#include "ppsim/scene/render_scene.h"
#include "terminal.h"

namespace ppsim::cli {
namespace {

struct RenderCliOptions {
  std::string scene;
  std::vector<std::string> out;
  std::vector<std::string> set;
  std::string size;
  // Not given: the scene's [render] value, else the default (30 fps, the
  // format's width, the terminal's columns or 100). 0 given is out of range.
  std::optional<int> fps;
  std::optional<int> display_width;
  std::optional<int> width;  // text: columns
  std::optional<Tick> at_tick;
  bool animated = false;
  std::string mp4_coding = "splice";
  std::string format;
  bool json = false;
  std::string gauge;  // "" = the scene's [render] gauge, else fullest
};

int Run(const RenderCliOptions& o) {
  scene::SceneRenderOptions ro;
  ro.outputs = o.out;
  ro.format = o.format;
  if (!o.size.empty()) {
    Result<std::pair<int, int>> size = scene::ParseFrameSize(o.size, "size");
    if (!size) return Report(size.error());
    ro.size = *size;
  }
  // The library reads 0 as "not given"; a 0 typed as a flag is refused as
  // the scene's own fps = 0 is, in the same words.
  auto zero = [](const char* field, const std::string& range) {
    return Report(Error::Field(ErrorCode::kInvalidValue, field, std::string(" 0 is outside ") + range));
  };
  if (o.fps == 0) return zero("fps", FpsRangeText());
  if (o.display_width == 0) return zero("display_width", FrameRangeText());
  if (o.width == 0) return zero("width", "20..100000 (text columns)");
  ro.fps = o.fps.value_or(0);
  ro.display_width = o.display_width.value_or(0);
  ro.gauge = o.gauge;
  ro.text_columns = o.width.value_or(0);
  ro.at_tick = o.at_tick;
  ro.animated = o.animated;
  ro.mp4 = o.mp4_coding == "every-frame" ? render::Mp4Coding::kEveryFrame : render::Mp4Coding::kSplice;
  ro.progress = isatty(STDERR_FILENO);
  if (o.out.size() == 1) {
    const render::TextOptions text = TextOptionsFor(o.out[0], o.width.value_or(0));
    ro.text_color = text.ansi;
    ro.text_columns = text.columns;
  }
  for (const std::string& out : o.out) MakeTourFolder(out);

  std::vector<std::string> false_claims;
  Result<scene::SceneRenderReport> report = scene::RenderScene(o.scene, o.set, ro, &false_claims);
  for (const std::string& line : false_claims) std::fprintf(stderr, "ppsim: %s\n", line.c_str());
  if (!report) return Report(report.error());
  if (o.out.size() == 1 && o.out[0] == "-") return 0;  // stdout holds the picture
  if (o.json) {
    if (Error e = io::WriteFileAtomically("-", scene::SceneRenderJson(*report) + "\n"); e.code != ErrorCode::kOk) return Report(e);
    return 0;
  }
  std::string text;
  for (const scene::RenderedOutput& out : report->outputs) text += "ppsim: wrote " + io::DisplayPath(out.path) + "\n";
  std::fputs(text.c_str(), stderr);
  std::string closing;
  for (const std::string& line : report->closing) closing += line + "\n";
  if (Error e = io::WriteFileAtomically("-", closing); e.code != ErrorCode::kOk) return Report(e);
  return 0;
}

const CommandRegistrar render_registrar(kRenderOrder, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<RenderCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "render", "check a scene's claims, then draw it: .mp4 .webm .gif .svg .png .html, or text (-o - --format text)");
  cmd->add_option("scene", o->scene, "scene file (TOML)")->required();
  cmd->add_option("-o,--output", o->out, "output file, format from its extension (repeatable); - for stdout")
      ->take_all();
  cmd->add_option("--set", o->set, "override a top-level value: --set P=8 (repeatable)")->take_all();
  cmd->add_option("--size", o->size, "frame size WIDTHxHEIGHT (default: the scene's [render] size, else 1920x1080)");
  cmd->add_option("--fps", o->fps, "video frames per second (default 30)");
  cmd->add_option("--gauge", o->gauge,
                  "fullest: per run, what the fullest device holds, counted the allocator's way (default: the "
                  "scene's [render] gauge, else fullest); cluster: all devices together; device: one small gauge "
                  "per device");
  cmd->add_option("--display-width", o->display_width,
                  "pixels wide the picture will be viewed at: text is sized and checked for that width "
                  "(default: the scene's [render] display_width, else 760 for .html and video, else the frame width)");
  cmd->add_option("--width", o->width, "text: columns (default: the terminal's width, else 80)");
  cmd->add_option("--at-tick", o->at_tick, "the frame at this tick instead of the final one (.png .svg text); .html opens there");
  cmd->add_flag("--animated", o->animated, ".svg: an animated SVG (SMIL) instead of the final frame");
  cmd->add_option("--mp4-coding", o->mp4_coding,
                  ".mp4: splice (default: each image coded once, repeats spliced in) or every-frame (x264 codes "
                  "every frame; for an x264 whose stream the splicer refuses)")
      ->check(CLI::IsMember({"splice", "every-frame"}));
  cmd->add_option("--format", o->format, "mp4, webm, gif, svg, png, html or text (default: from -o's extension)");
  cmd->add_flag("--json", o->json, "print what was written and the runs' numbers as one JSON object");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

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
#include "ppsim/render/output_format.h"
#include "ppsim/render/render_settings.h"
#include "ppsim/scene/render_scene.h"
#include "terminal.h"

namespace ppsim::cli {
namespace {

struct RenderCliOptions {
  std::string scene;
  std::vector<std::string> out;
  std::vector<std::string> set;
  // The settings of render_settings.h's table, as typed: flag name -> text.
  // Checked by render::SetRenderSetting, as a scene's [render] and Python's
  // keywords are.
  std::vector<std::pair<std::string, std::string>> settings;
  bool animated = false;
  std::string mp4_coding = "splice";
  std::string format;
  bool json = false;
};

int Run(const RenderCliOptions& o) {
  scene::SceneRenderOptions ro;
  ro.outputs = o.out;
  ro.format = o.format;
  for (const auto& [name, text] : o.settings) {
    if (Error e = render::SetRenderSetting(name, KeyValue::FromText(text), ro.settings); !e.ok()) return Report(e);
  }
  ro.animated = o.animated;
  ro.mp4 = o.mp4_coding == "every-frame" ? render::Mp4Coding::kEveryFrame : render::Mp4Coding::kSplice;
  ro.progress = isatty(STDERR_FILENO);
  if (o.out.size() == 1) {
    const render::TextOptions text = TextOptionsFor(o.out[0], ro.settings.text_columns.value_or(0));
    ro.text_color = text.ansi;
    if (text.columns != 0) ro.settings.text_columns = text.columns;
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
      "render", RenderSummary());
  cmd->add_option("scene", o->scene, "scene file (TOML)")->required();
  cmd->add_option("-o,--output", o->out, "output file, format from its extension (repeatable); - for stdout")
      ->take_all();
  cmd->add_option("--set", o->set, "override a top-level value: --set P=8 (repeatable)")->take_all();
  for (const render::RenderSetting& row : render::RenderSettingTable()) {
    const std::string name = row.name;
    cmd->add_option_function<std::string>(
        row.flag, [o, name](const std::string& text) { o->settings.emplace_back(name, text); },
        render::RenderSettingHelp(name));
  }
  cmd->add_flag("--animated", o->animated, ".svg: an animated SVG (SMIL) instead of the final frame");
  cmd->add_option("--mp4-coding", o->mp4_coding,
                  ".mp4: splice (default: each image coded once, repeats spliced in) or every-frame (x264 codes "
                  "every frame; for an x264 whose stream the splicer refuses)")
      ->check(CLI::IsMember({"splice", "every-frame"}));
  cmd->add_option("--format", o->format, render::FormatNames() + " (default: from -o's extension)");
  cmd->add_flag("--json", o->json, "print what was written and the runs' numbers as one JSON object");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

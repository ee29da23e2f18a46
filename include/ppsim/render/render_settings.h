// The settings of a picture, in one table (as problem_keys.h is for a
// problem): each with its name, flag, type, range, default and a one-line
// doc. Every way of giving one — a scene's [render] table, `ppsim render`'s
// flags, Python's ppsim.render keywords — sets it through SetRenderSetting,
// so a value is checked in one place with the same words, and the flags'
// help and docs/rendering.md's settings table are made from the rows
// (RenderSettingsMarkdown; tests/render/render_settings_doc_test.cc fails
// when the doc is stale, PPSIM_UPDATE_DOCS=1 rewrites it).
// Standard library only (ppsim_draw), so that loading a scene needs no
// drawing library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"
#include "ppsim/problem_keys.h"
#include "ppsim/render/display_list.h"

namespace ppsim::render {

// Every field is unset unless given; the defaults fill the rest where the
// picture is drawn (the table's default column says which).
struct RenderSettings {
  std::optional<int> width, height;  // size = "WIDTHxHEIGHT"
  std::optional<int> fps;            // video frames per second
  std::optional<int> display_width;  // pixels wide the picture is viewed at
  std::optional<GaugeMode> gauge;    // fullest, cluster or device
  std::optional<int> text_columns;   // width: a text chart's columns
  std::optional<Tick> at_tick;       // one frame at this tick instead of the final one

  // Each setting `over` gives replaces this one's.
  void Overlay(const RenderSettings& over);
};

enum class SettingType {
  kSize,  // "WIDTHxHEIGHT", each side in [min, max]
  kInt,   // one whole number in [min, max]
  kWord,  // one of `words`
};

struct RenderSetting {
  const char* name;   // as [render] and Python spell it, and errors name it: "display_width"
  const char* flag;   // `ppsim render`'s: "--display-width"
  SettingType type;
  std::int64_t min, max;
  const char* unit;           // printed after the range, "text columns"; "" for none
  const char* words;          // kWord: "fullest, cluster, device"
  const char* default_value;  // as the table prints it
  const char* doc;            // one line
  bool in_scene;              // a scene's [render] table takes it
  void (*store)(const KeyValue& value, RenderSettings& settings);  // REQUIRES: value checked against the row
};

// Every setting, in the order docs list them.
const std::vector<RenderSetting>& RenderSettingTable();
const RenderSetting* FindRenderSetting(std::string_view name);

// Checks `value` against setting `name` and stores it. Errors (kInvalidValue,
// field = the setting's name): "fps 1000 is outside 1..240", "fps must be a
// whole number", "size \"1280x\" must be WIDTHxHEIGHT, each 16..16384 (e.g.
// 1920x1080)", "gauge \"stage\" is not one of fullest, cluster, device".
// kUnknownName for a name not in the table. A value is a number (KeyValue::
// Int) or text (a word or other text, as written).
Error SetRenderSetting(std::string_view name, const KeyValue& value, RenderSettings& settings);

// "size, fps, display_width, gauge": the keys [render] takes.
std::string SceneRenderKeys();
// A flag's help: the doc, then "(default: ...)".
std::string RenderSettingHelp(std::string_view name);
// The table as docs/rendering.md shows it (Markdown, with a trailing newline).
std::string RenderSettingsMarkdown();

}  // namespace ppsim::render

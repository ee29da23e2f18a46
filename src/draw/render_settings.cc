#include "ppsim/render/render_settings.h"

#include "ppsim/render/output_format.h"
#include "ppsim/render_limits.h"
#include "ppsim/whole_number.h"

namespace ppsim::render {
namespace {

using T = SettingType;

GaugeMode GaugeOf(const std::string& w) {
  return w == "device" ? GaugeMode::kDevice : w == "cluster" ? GaugeMode::kCluster : GaugeMode::kFullest;
}

// "1920x1080" (or "1920X1080") -> true and the two sides; sides unchecked.
bool SplitSize(const std::string& text, std::int64_t* w, std::int64_t* h) {
  const size_t x = text.find_first_of("xX");
  return x != std::string::npos && IsWhole(std::string_view(text).substr(0, x), *w) &&
         IsWhole(std::string_view(text).substr(x + 1), *h);
}

std::string RangeText(const RenderSetting& row, bool with_unit = true) {
  // A bound of size only (at_tick's) is written as the power of two it is.
  std::string s = std::to_string(row.min) + ".." + (row.max == kMaxWork ? "2^62" : std::to_string(row.max));
  if (with_unit && *row.unit) s += std::string(" (") + row.unit + ")";
  return s;
}

bool IsWordOf(const std::string& word, const char* words) {
  const std::string list = words;
  for (size_t from = 0;;) {
    const size_t comma = list.find(", ", from);
    if (list.compare(from, comma == std::string::npos ? std::string::npos : comma - from, word) == 0) return true;
    if (comma == std::string::npos) return false;
    from = comma + 2;
  }
}

}  // namespace

void RenderSettings::Overlay(const RenderSettings& over) {
  if (over.width) width = over.width;
  if (over.height) height = over.height;
  if (over.fps) fps = over.fps;
  if (over.display_width) display_width = over.display_width;
  if (over.gauge) gauge = over.gauge;
  if (over.text_columns) text_columns = over.text_columns;
  if (over.at_tick) at_tick = over.at_tick;
}

const std::vector<RenderSetting>& RenderSettingTable() {
  static const std::string at_tick_doc = "one frame at this tick instead of the final one (" + OneFrameFormats() +
                                         "); .html opens there";
  static const std::vector<RenderSetting> table = {
      {"size", "--size", T::kSize, kMinFramePx, kMaxFramePx, "", "", "1920x1080",
       "frame size WIDTHxHEIGHT, in pixels", true,
       [](const KeyValue& v, RenderSettings& s) {
         std::int64_t w = 0, h = 0;
         SplitSize(v.text, &w, &h);
         s.width = static_cast<int>(w);
         s.height = static_cast<int>(h);
       }},
      {"fps", "--fps", T::kInt, kMinFps, kMaxFps, "", "", "30", "video frames per second", true,
       [](const KeyValue& v, RenderSettings& s) { s.fps = static_cast<int>(v.ints[0]); }},
      {"display_width", "--display-width", T::kInt, kMinFramePx, kMaxFramePx, "", "",
       "760 for .html and video, else the frame width",
       "pixels wide the picture will be viewed at: text is sized and checked for that width", true,
       [](const KeyValue& v, RenderSettings& s) { s.display_width = static_cast<int>(v.ints[0]); }},
      {"gauge", "--gauge", T::kWord, 0, 0, "", "fullest, cluster, device", "fullest",
       "fullest: per run, what the fullest device holds, counted the allocator's way; cluster: all devices "
       "together; device: one small gauge per device",
       true, [](const KeyValue& v, RenderSettings& s) { s.gauge = GaugeOf(v.text); }},
      {"width", "--width", T::kInt, 20, 100000, "text columns", "", "the terminal's width, else 80",
       "text: columns", false,
       [](const KeyValue& v, RenderSettings& s) { s.text_columns = static_cast<int>(v.ints[0]); }},
      {"at_tick", "--at-tick", T::kInt, 0, kMaxWork, "", "", "the final frame", at_tick_doc.c_str(), false,
       [](const KeyValue& v, RenderSettings& s) { s.at_tick = v.ints[0]; }},
  };
  return table;
}

const RenderSetting* FindRenderSetting(std::string_view name) {
  for (const RenderSetting& row : RenderSettingTable()) {
    if (name == row.name) return &row;
  }
  return nullptr;
}

Error SetRenderSetting(std::string_view name, const KeyValue& value, RenderSettings& settings) {
  const RenderSetting* row = FindRenderSetting(name);
  if (!row) {
    std::string known;
    for (const RenderSetting& r : RenderSettingTable()) known += (known.empty() ? "" : ", ") + std::string(r.name);
    return Error::Field(ErrorCode::kUnknownName, std::string(name), ": unknown render setting (known: " + known + ")");
  }
  const std::string field = row->name;
  switch (row->type) {
    case T::kSize: {
      std::int64_t w = 0, h = 0;
      if (!SplitSize(value.text, &w, &h) || w < row->min || h < row->min || w > row->max || h > row->max) {
        return Error::Field(ErrorCode::kInvalidValue, field,
                            " \"" + value.text + "\" must be WIDTHxHEIGHT, each " + RangeText(*row) +
                                " (e.g. 1920x1080)");
      }
      break;
    }
    case T::kInt:
      if (value.kind == KeyValue::Kind::kHuge) {
        return Error::Field(ErrorCode::kInvalidValue, field, " " + value.text + " is outside " + RangeText(*row));
      }
      if (value.kind != KeyValue::Kind::kInt) return Error::Field(ErrorCode::kInvalidValue, field, " must be a whole number");
      if (value.ints[0] < row->min || value.ints[0] > row->max) {
        return Error::Field(ErrorCode::kInvalidValue, field,
                            " " + std::to_string(value.ints[0]) + " is outside " + RangeText(*row));
      }
      break;
    case T::kWord:
      if (!IsWordOf(value.text, row->words)) {
        return Error::Field(ErrorCode::kInvalidValue, field,
                            " \"" + value.text + "\" is not one of " + row->words);
      }
      break;
  }
  row->store(value, settings);
  return Error::Ok();
}

std::string SceneRenderKeys() {
  std::string keys;
  for (const RenderSetting& row : RenderSettingTable()) {
    if (row.in_scene) keys += (keys.empty() ? "" : ", ") + std::string(row.name);
  }
  return keys;
}

std::string RenderSettingHelp(std::string_view name) {
  const RenderSetting* row = FindRenderSetting(name);
  if (!row) return "";
  std::string help = row->doc;
  if (row->type == T::kInt) help += " (" + RangeText(*row, false) + ")";
  help += std::string(" (default: ") + (row->in_scene ? "the scene's [render] " + std::string(row->name) + ", else " : "") +
          row->default_value + ")";
  return help;
}

std::string RenderSettingsMarkdown() {
  std::string md =
      "| setting | flag | [render] | type | range | default | what it sets |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const RenderSetting& row : RenderSettingTable()) {
    std::string type, range;
    switch (row.type) {
      case T::kSize: type = "\"WxH\""; range = "each side " + RangeText(row); break;
      case T::kInt: type = "integer"; range = RangeText(row); break;
      case T::kWord: type = "word"; range = row.words; break;
    }
    md += std::string("| `") + row.name + "` | `" + row.flag + "` | " + (row.in_scene ? "yes" : "no") + " | " + type +
          " | " + range + " | " + row.default_value + " | " + row.doc + " |\n";
  }
  return md;
}

}  // namespace ppsim::render

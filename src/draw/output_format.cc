#include "ppsim/render/output_format.h"

#include <algorithm>

namespace ppsim::render {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsText(const FormatRow& row) { return row.format == OutputFormat::kText; }

// "a, b, c or d" (separator between all but the last two).
std::string Listed(const std::vector<std::string>& items, const std::string& sep, const std::string& last) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += i + 1 == items.size() ? last : sep;
    s += items[i];
  }
  return s;
}

}  // namespace

const std::vector<FormatRow>& FormatTable() {
  static const std::vector<FormatRow> table = {
      {"mp4", ".mp4", OutputFormat::kMp4, true},    {"webm", ".webm", OutputFormat::kWebm, true},
      {"gif", ".gif", OutputFormat::kGif, true},    {"svg", ".svg", OutputFormat::kSvg, false},
      {"png", ".png", OutputFormat::kPng, false},   {"html", ".html", OutputFormat::kHtml, false},
      {"text", ".txt", OutputFormat::kText, false},
  };
  return table;
}

Error StdoutNeedsText() {
  return Error::Field(ErrorCode::kUsage, "format", " must be text to write to stdout");
}

Result<OutputFormat> FormatFor(const std::string& path, const std::string& format) {
  if (!format.empty()) {
    for (const FormatRow& row : FormatTable()) {
      if (format == row.name) return row.format;
    }
    std::vector<std::string> names;
    for (const FormatRow& row : FormatTable()) names.push_back(row.name);
    return Error::Field(ErrorCode::kUnknownName, "format",
                        ": unknown format \"" + format + "\" (known: " + Listed(names, ", ", ", ") + ")");
  }
  if (path == "-") return StdoutNeedsText();
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const FormatRow& row : FormatTable()) {
    if (EndsWith(lower, row.ext)) return row.format;
  }
  std::vector<std::string> exts;
  for (const FormatRow& row : FormatTable()) exts.push_back(row.ext);
  return Error::Field(ErrorCode::kUsage, "out",
                      " " + path + ": cannot tell the format from the name (use " + Listed(exts, ", ", ", ") + ")");
}

bool IsVideo(OutputFormat format) {
  for (const FormatRow& row : FormatTable()) {
    if (row.format == format) return row.video;
  }
  return false;
}

bool IsStillPicture(OutputFormat format) {
  for (const FormatRow& row : FormatTable()) {
    if (row.format == format) return !row.video && !IsText(row);
  }
  return false;
}

std::string PictureExtensions() {
  std::vector<std::string> exts;
  for (const FormatRow& row : FormatTable()) {
    if (!IsText(row)) exts.push_back(row.ext);
  }
  return Listed(exts, " ", " ");
}

std::string FormatNames() {
  std::vector<std::string> names;
  for (const FormatRow& row : FormatTable()) names.push_back(row.name);
  return Listed(names, ", ", " or ");
}

std::string OneFrameFormats() {
  std::vector<std::string> names;
  for (const FormatRow& row : FormatTable()) {
    if (!row.video) names.push_back(IsText(row) ? row.name : row.ext);
  }
  return Listed(names, ", ", " or ");
}

std::string StillPictures() {
  std::vector<std::string> exts;
  for (const FormatRow& row : FormatTable()) {
    if (IsStillPicture(row.format)) exts.push_back(row.ext);
  }
  return Listed(exts, ", ", " or ");
}

}  // namespace ppsim::render

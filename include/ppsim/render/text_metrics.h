// Text measurement with Pango, the same way the Cairo painter draws it:
// DejaVu Sans, absolute pixel sizes, no hinting (so a box measured here is
// the box painted at any scale). Results are cached by (text, size, weight).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "ppsim/error.h"

namespace ppsim::render {

inline constexpr const char* kFontFamily = "DejaVu Sans";

struct TextSize {
  double w = 0, h = 0;
  double baseline = 0;  // from the top
};

class TextMeasurer {
 public:
  // Fails with kMissingTool if the font family is not installed.
  static Result<std::unique_ptr<TextMeasurer>> Create();
  ~TextMeasurer();
  TextMeasurer(const TextMeasurer&) = delete;
  TextMeasurer& operator=(const TextMeasurer&) = delete;

  TextSize Measure(const std::string& text, double font_px, bool bold);

 private:
  TextMeasurer() = default;
  struct Impl;
  Impl* impl_ = nullptr;
  std::map<std::tuple<std::string, double, bool>, TextSize> cache_;
};

}  // namespace ppsim::render

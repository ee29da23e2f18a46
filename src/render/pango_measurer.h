// Text measurement with Pango, the same way the Cairo painter draws it:
// DejaVu Sans, absolute pixel sizes, no hinting (so a box measured here is
// the box painted at any scale). Results are cached by (text, size, weight).
// Part of ppsim_render (Cairo and Pango); the terminal uses CellMeasurer.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "ppsim/error.h"
#include "ppsim/render/text_metrics.h"

namespace ppsim::render {

class PangoMeasurer final : public TextMeasurer {
 public:
  // Fails with kMissingTool if the font family is not installed.
  static Result<std::unique_ptr<TextMeasurer>> Create();
  ~PangoMeasurer() override;
  PangoMeasurer(const PangoMeasurer&) = delete;
  PangoMeasurer& operator=(const PangoMeasurer&) = delete;

  TextSize Measure(const std::string& text, double font_px, bool bold) override;

 private:
  PangoMeasurer() = default;
  struct Impl;
  Impl* impl_ = nullptr;
  std::map<std::tuple<std::string, double, bool>, TextSize> cache_;
};

}  // namespace ppsim::render

// How the layout measures text: a TextMeasurer gives the box a string takes
// at a font size. The layout (layout.h) and the legibility check depend on
// this interface only, so that drawing without pixels needs no font library:
// PangoMeasurer (pango_measurer.h) measures with the font the pixel outputs
// paint (PNG, video, SVG, HTML); CellMeasurer (cell_measurer.h) counts
// character cells for the terminal.
#pragma once

#include <string>

namespace ppsim::render {

// The family every pixel output paints and names (SVG's font-family).
inline constexpr const char* kFontFamily = "DejaVu Sans";

struct TextSize {
  double w = 0, h = 0;
  double baseline = 0;  // from the top
};

class TextMeasurer {
 public:
  virtual ~TextMeasurer() = default;
  // The logical box of `text` (UTF-8) at `font_px` pixels. Equal arguments
  // give equal sizes for the measurer's lifetime.
  virtual TextSize Measure(const std::string& text, double font_px, bool bold) = 0;
};

}  // namespace ppsim::render

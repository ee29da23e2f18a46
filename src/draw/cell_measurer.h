// Text measured in character cells, for painters that draw characters (the
// terminal, text_painter.h): every code point is one cell of a monospace
// font, kCellEm of the font size wide, and a line is kLineEm high. Needs no
// font library, so `ppsim simulate --format text` lays out without Pango.
#pragma once

#include <string>

#include "ppsim/render/text_metrics.h"

namespace ppsim::render {

class CellMeasurer final : public TextMeasurer {
 public:
  // DejaVu Sans Mono's advance (1233/2048 em), line (1.164 em) and ascent
  // (0.928 em), rounded: a terminal's usual font.
  static constexpr double kCellEm = 0.6;
  static constexpr double kLineEm = 1.2;
  static constexpr double kAscentEm = 0.95;

  // Bold takes the same cells.
  TextSize Measure(const std::string& text, double font_px, bool bold) override;
  // Code points in `text` (UTF-8): the cells it takes.
  static int Cells(const std::string& text);
};

}  // namespace ppsim::render

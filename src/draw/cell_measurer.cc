#include "cell_measurer.h"

namespace ppsim::render {

int CellMeasurer::Cells(const std::string& text) {
  int n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
  return n;
}

TextSize CellMeasurer::Measure(const std::string& text, double font_px, bool /*bold*/) {
  return {Cells(text) * kCellEm * font_px, kLineEm * font_px, kAscentEm * font_px};
}

}  // namespace ppsim::render

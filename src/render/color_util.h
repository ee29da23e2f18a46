// Colour arithmetic shared by the layout and the painters.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "ppsim/render/display_list.h"

namespace ppsim::render {

// (1 - t) * a + t * b, per channel.
inline Color Mix(Color a, Color b, double t) {
  auto ch = [t](int x, int y) { return static_cast<std::uint8_t>(std::lround(x + (y - x) * t)); };
  return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b)};
}

// Later chunks of an interleaved schedule are drawn lighter.
inline Color ChunkShade(Color c, int chunk, int v) {
  if (v <= 1 || chunk == 0) return c;
  return Mix(c, palette::kBackground, 0.45 * chunk / (v - 1));
}

// A readable text colour on `fill`: white on dark fills, dark on light ones.
inline Color TextOn(Color fill) {
  const double luma = 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b;
  return luma < 150 ? Color{255, 255, 255} : palette::kText;
}

// "#4c78a8".
inline std::string Hex(Color c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

}  // namespace ppsim::render

// Colour arithmetic shared by the layout and the painters.
#pragma once

#include <algorithm>
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

// An op's fill: its kind's colour, later chunks of a run with v chunks
// lighter, evenly, up to the kind's last shade (so a kind never leaves its
// lightness band: see the palette).
inline Color OpFill(OpKind kind, int chunk, int v) {
  const Color first[] = {palette::kForward, palette::kBackward, palette::kWeightGrad, palette::kRecompute};
  const Color last[] = {palette::kForwardLast, palette::kBackwardLast, palette::kWeightGradLast,
                        palette::kRecomputeLast};
  const int k = static_cast<int>(kind);
  if (v <= 1 || chunk <= 0) return first[k];
  return Mix(first[k], last[k], std::min(1.0, static_cast<double>(chunk) / (v - 1)));
}

// An aggregated column where several kinds are done: the even mix of their
// colours. `kinds` has bit 0 for F, 1 for B, 2 for W, 3 for R (at least one set).
inline Color KindsMix(int kinds) {
  const Color colors[] = {palette::kForward, palette::kBackward, palette::kWeightGrad, palette::kRecompute};
  int r = 0, g = 0, b = 0, n = 0;
  for (int k = 0; k < 4; ++k) {
    if (!(kinds >> k & 1)) continue;
    r += colors[k].r, g += colors[k].g, b += colors[k].b, ++n;
  }
  return {static_cast<std::uint8_t>(r / n), static_cast<std::uint8_t>(g / n), static_cast<std::uint8_t>(b / n)};
}

// WCAG 2 relative luminance and contrast ratio (1..21).
inline double Luminance(Color c) {
  auto lin = [](int v) {
    const double x = v / 255.0;
    return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
// CIELAB lightness L* (0 black .. 100 white): what a greyscale copy shows.
inline double Lightness(Color c) {
  const double y = Luminance(c);
  return y > 216.0 / 24389 ? 116 * std::cbrt(y) - 16 : y * 24389.0 / 27;
}
inline double Contrast(Color a, Color b) {
  const double la = Luminance(a), lb = Luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// A readable text colour on `fill`: white or near-black, whichever contrasts more.
inline Color TextOn(Color fill) {
  const Color white{255, 255, 255};
  return Contrast(white, fill) > Contrast(palette::kText, fill) ? white : palette::kText;
}

// "#4c78a8".
inline std::string Hex(Color c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

}  // namespace ppsim::render

// Paints one frame of a DisplayList with Cairo + PangoCairo into an owned
// image (32-bit BGRA in memory order, opaque), the pixels of PNG output and
// video frames. Text layouts are built once and reused across frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/render/display_list.h"

namespace ppsim::render {

struct Image {
  int width = 0, height = 0;
  int stride = 0;                     // bytes per row
  const std::uint8_t* data = nullptr;  // B, G, R, A per pixel; valid until the next Paint
};

class FramePainter {
 public:
  // REQUIRES: `list` outlives the painter.
  explicit FramePainter(const DisplayList& list);
  ~FramePainter();
  FramePainter(const FramePainter&) = delete;
  FramePainter& operator=(const FramePainter&) = delete;

  // Paints frame t (0 <= t <= list.last_tick).
  Image Paint(Tick t);

 private:
  friend Result<std::string> RenderPng(const DisplayList& list, Tick t);
  struct Impl;
  Impl* impl_;
};

// The frame at tick t as PNG bytes (deterministic for the same list).
Result<std::string> RenderPng(const DisplayList& list, Tick t);

}  // namespace ppsim::render

// Decodes PNG bytes with Cairo so that tests can read pixels back.
#pragma once

#include <cairo.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "ppsim/render/display_list.h"

namespace ppsim::render::testing {

class PngPixels {
 public:
  explicit PngPixels(const std::string& png) : png_(png) {
    surface_ = cairo_image_surface_create_from_png_stream(&PngPixels::Read, this);
  }
  ~PngPixels() { cairo_surface_destroy(surface_); }
  bool ok() const { return cairo_surface_status(surface_) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(surface_); }
  int height() const { return cairo_image_surface_get_height(surface_); }
  Color At(int x, int y) const {
    const unsigned char* data = cairo_image_surface_get_data(surface_);
    const int stride = cairo_image_surface_get_stride(surface_);
    std::uint32_t px;
    std::memcpy(&px, data + y * stride + x * 4, 4);
    return {static_cast<std::uint8_t>(px >> 16), static_cast<std::uint8_t>(px >> 8), static_cast<std::uint8_t>(px)};
  }

 private:
  static cairo_status_t Read(void* closure, unsigned char* data, unsigned int length) {
    auto* self = static_cast<PngPixels*>(closure);
    if (self->pos_ + length > self->png_.size()) return CAIRO_STATUS_READ_ERROR;
    std::memcpy(data, self->png_.data() + self->pos_, length);
    self->pos_ += length;
    return CAIRO_STATUS_SUCCESS;
  }
  std::string png_;
  size_t pos_ = 0;
  cairo_surface_t* surface_ = nullptr;
};

}  // namespace ppsim::render::testing

#include "frame_painter.h"

#include <cairo.h>
#include <pango/pangocairo.h>

#include <cmath>

#include "pango_text.h"

namespace ppsim::render {

struct FramePainter::Impl {
  const DisplayList* list = nullptr;
  cairo_surface_t* surface = nullptr;
  cairo_t* cr = nullptr;
  PangoContext* context = nullptr;
  std::vector<PangoLayout*> layouts;  // by item index, built on first use

  PangoLayout* LayoutFor(size_t index) {
    if (layouts[index] != nullptr) return layouts[index];
    const Item& item = list->items[index];
    PangoLayout* layout = pango_layout_new(context);
    PangoFontDescription* desc = NewFontDescription(item.font_px, item.bold);
    pango_layout_set_font_description(layout, desc);
    pango_font_description_free(desc);
    pango_layout_set_text(layout, item.text.data(), static_cast<int>(item.text.size()));
    layouts[index] = layout;
    return layout;
  }
};

namespace {

void SetColor(cairo_t* cr, Color c) { cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

// Diagonal lines x + y = k * kHatchSpacing over the rect, as the SVG's pattern.
void Hatch(cairo_t* cr, double x, double y, double w, double h) {
  cairo_save(cr);
  cairo_rectangle(cr, x, y, w, h);
  cairo_clip(cr);
  SetColor(cr, palette::kHatch);
  cairo_set_line_width(cr, 1);
  const double s = kHatchSpacing;
  for (double k = std::floor((x + y) / s); k * s <= x + w + y + h; ++k) {
    cairo_move_to(cr, k * s - (y + h), y + h);
    cairo_line_to(cr, k * s - y, y);
  }
  cairo_stroke(cr);
  cairo_restore(cr);
}

}  // namespace

FramePainter::FramePainter(const DisplayList& list) : impl_(new Impl()) {
  impl_->list = &list;
  impl_->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, list.width, list.height);
  impl_->cr = cairo_create(impl_->surface);
  impl_->context = pango_cairo_create_context(impl_->cr);
  cairo_font_options_t* options = NewFontOptions();
  pango_cairo_context_set_font_options(impl_->context, options);
  cairo_font_options_destroy(options);
  impl_->layouts.assign(list.items.size(), nullptr);
}

FramePainter::~FramePainter() {
  for (PangoLayout* layout : impl_->layouts) {
    if (layout != nullptr) g_object_unref(layout);
  }
  g_object_unref(impl_->context);
  cairo_destroy(impl_->cr);
  cairo_surface_destroy(impl_->surface);
  delete impl_;
}

Image FramePainter::Paint(Tick t) {
  cairo_t* cr = impl_->cr;
  const std::vector<Item>& items = impl_->list->items;
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
  SetColor(cr, palette::kBackground);
  cairo_paint(cr);
  // Consecutive rectangles of one colour are filled as one path: same
  // pixels, far fewer fills.
  bool pending = false;
  Color pending_color;
  auto flush = [&] {
    if (!pending) return;
    SetColor(cr, pending_color);
    cairo_fill(cr);
    pending = false;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    if (!item.VisibleAt(t)) continue;
    switch (item.kind) {
      case ItemKind::kRect: {
        const double w = item.WidthAt(t);
        if (w <= 0 || item.box.h <= 0) break;
        if (pending && !(pending_color == item.color)) flush();
        cairo_rectangle(cr, item.box.x, item.box.y, w, item.box.h);
        pending = true;
        pending_color = item.color;
        if (item.hatched) {
          flush();
          Hatch(cr, item.box.x, item.box.y, w, item.box.h);
        }
        break;
      }
      case ItemKind::kLine:
        flush();
        SetColor(cr, item.color);
        cairo_set_line_width(cr, item.line_width);
        cairo_move_to(cr, item.box.x, item.box.y);
        cairo_line_to(cr, item.box.right(), item.box.bottom());
        cairo_stroke(cr);
        break;
      case ItemKind::kText:
        flush();
        SetColor(cr, item.color);
        cairo_move_to(cr, item.box.x, item.box.y);
        pango_cairo_show_layout(cr, impl_->LayoutFor(i));
        break;
    }
  }
  flush();
  cairo_surface_flush(impl_->surface);
  Image image;
  image.width = impl_->list->width;
  image.height = impl_->list->height;
  image.stride = cairo_image_surface_get_stride(impl_->surface);
  image.data = cairo_image_surface_get_data(impl_->surface);
  return image;
}

namespace {

cairo_status_t AppendToString(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

Result<std::string> RenderPng(const DisplayList& list, Tick t) {
  FramePainter painter(list);
  painter.Paint(t);
  std::string png;
  const cairo_status_t status = cairo_surface_write_to_png_stream(painter.impl_->surface, AppendToString, &png);
  if (status != CAIRO_STATUS_SUCCESS) {
    return Fail(ErrorCode::kInternal, std::string("png encoding failed: ") + cairo_status_to_string(status));
  }
  return png;
}

}  // namespace ppsim::render

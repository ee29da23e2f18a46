#include "pango_measurer.h"

#include <strings.h>

#include <string>
#include <utility>

#include "pango_text.h"

namespace ppsim::render {

PangoFontDescription* NewFontDescription(double font_px, bool bold) {
  PangoFontDescription* desc = pango_font_description_new();
  pango_font_description_set_family(desc, kFontFamily);
  pango_font_description_set_weight(desc, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_absolute_size(desc, font_px * PANGO_SCALE);
  return desc;
}

cairo_font_options_t* NewFontOptions() {
  cairo_font_options_t* options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  return options;
}

struct PangoMeasurer::Impl {
  PangoContext* context = nullptr;
  PangoLayout* layout = nullptr;
};

Result<std::unique_ptr<TextMeasurer>> PangoMeasurer::Create() {
  std::unique_ptr<PangoMeasurer> m(new PangoMeasurer());
  m->impl_ = new Impl();
  PangoFontMap* map = pango_cairo_font_map_get_default();
  m->impl_->context = pango_font_map_create_context(map);
  cairo_font_options_t* options = NewFontOptions();
  pango_cairo_context_set_font_options(m->impl_->context, options);
  cairo_font_options_destroy(options);
  m->impl_->layout = pango_layout_new(m->impl_->context);

  // Is the family really there (fontconfig silently substitutes)?
  PangoFontDescription* desc = NewFontDescription(12, false);
  PangoFont* font = pango_font_map_load_font(map, m->impl_->context, desc);
  pango_font_description_free(desc);
  bool found = false;
  if (font != nullptr) {
    PangoFontDescription* got = pango_font_describe(font);
    const char* family = pango_font_description_get_family(got);
    found = family != nullptr && strncasecmp(family, "DejaVu Sans", 11) == 0;
    pango_font_description_free(got);
    g_object_unref(font);
  }
  if (!found) {
    return Fail(ErrorCode::kMissingTool, std::string("font \"") + kFontFamily +
                                             "\" not found: install fonts-dejavu-core (apt-get install fonts-dejavu-core)");
  }
  return std::unique_ptr<TextMeasurer>(std::move(m));
}

PangoMeasurer::~PangoMeasurer() {
  if (impl_ == nullptr) return;
  if (impl_->layout != nullptr) g_object_unref(impl_->layout);
  if (impl_->context != nullptr) g_object_unref(impl_->context);
  delete impl_;
}

TextSize PangoMeasurer::Measure(const std::string& text, double font_px, bool bold) {
  auto key = std::make_tuple(text, font_px, bold);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  PangoFontDescription* desc = NewFontDescription(font_px, bold);
  pango_layout_set_font_description(impl_->layout, desc);
  pango_font_description_free(desc);
  pango_layout_set_text(impl_->layout, text.data(), static_cast<int>(text.size()));
  PangoRectangle logical;
  pango_layout_get_extents(impl_->layout, nullptr, &logical);
  TextSize size;
  size.w = static_cast<double>(logical.width) / PANGO_SCALE;
  size.h = static_cast<double>(logical.height) / PANGO_SCALE;
  size.baseline = static_cast<double>(pango_layout_get_baseline(impl_->layout)) / PANGO_SCALE;
  cache_.emplace(std::move(key), size);
  return size;
}

}  // namespace ppsim::render

#if defined(__SANITIZE_ADDRESS__)
// fontconfig keeps its pattern caches for the life of the process, in ways
// LeakSanitizer cannot follow (the allocations are reached only through
// fontconfig's own tables). They are not ours to free; everything ppsim
// allocates is still checked.
extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }
// ...and without the "Suppressions used:" table LeakSanitizer would print on
// stderr at exit, which would break every one-line error and "wrote" line.
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
#endif

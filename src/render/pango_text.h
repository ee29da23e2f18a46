// Shared Pango/Cairo set-up: one font description and one set of font options
// for measuring and painting, so both agree to the pixel.
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

namespace ppsim::render {

// Caller owns the result (pango_font_description_free).
PangoFontDescription* NewFontDescription(double font_px, bool bold);

// Grayscale antialiasing, no hinting: deterministic and scale-independent.
cairo_font_options_t* NewFontOptions();

}  // namespace ppsim::render

// The SVG element of one display-list item, shared by the SVG and HTML
// writers so that both draw exactly the same marks.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/render/display_list.h"
#include "ppsim/render/svg_writer.h"  // XmlEscape

namespace ppsim::render {

// Up to two decimals, no trailing zeros: "12.5", "100", "-0.25".
std::string Num(double v);

// Appends <rect>, <line> or <text> for `item` drawn `width` wide, with
// `attrs` (" name=\"value\"..." or "") and `children` inside the element.
void AppendSvgItem(std::string& out, const Item& item, double width, std::string_view attrs,
                   std::string_view children);

// "<svg ...>" with the frame's size and the font.
std::string SvgOpen(const DisplayList& list, std::string_view attrs);

}  // namespace ppsim::render

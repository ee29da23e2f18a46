#include "svg_items.h"

#include <cmath>
#include <cstdio>

#include "color_util.h"
#include "ppsim/one_line.h"
#include "ppsim/render/text_metrics.h"

namespace ppsim::render {

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", std::round(v * 100) / 100);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    const size_t len = Utf8Length(text, i);
    // XML 1.0 holds no control character but tab, newline and return, not
    // even as &#x1;, and only well-formed UTF-8: anything else becomes U+FFFD.
    if (len == 0 || (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

void AppendSvgItem(std::string& out, const Item& item, double width, std::string_view attrs,
                   std::string_view children) {
  switch (item.kind) {
    case ItemKind::kRect:
      out += "<rect x=\"" + Num(item.box.x) + "\" y=\"" + Num(item.box.y) + "\" width=\"" + Num(width) +
             "\" height=\"" + Num(item.box.h) + "\" fill=\"" + (item.hatched ? "url(#hatch)" : Hex(item.color)) +
             "\"";
      break;
    case ItemKind::kLine:
      out += "<line x1=\"" + Num(item.box.x) + "\" y1=\"" + Num(item.box.y) + "\" x2=\"" + Num(item.box.right()) +
             "\" y2=\"" + Num(item.box.bottom()) + "\" stroke=\"" + Hex(item.color) + "\" stroke-width=\"" +
             Num(item.line_width) + "\"";
      break;
    case ItemKind::kText: {
      // Anchored at the side the layout aligned it on, so that a viewer's
      // substitute font grows away from that side instead of off its cell.
      const double x = item.anchor == Anchor::kMiddle ? item.box.x + item.box.w / 2
                       : item.anchor == Anchor::kEnd  ? item.box.right()
                                                      : item.box.x;
      const char* anchor = item.anchor == Anchor::kMiddle ? " text-anchor=\"middle\""
                           : item.anchor == Anchor::kEnd  ? " text-anchor=\"end\""
                                                          : "";
      out += "<text x=\"" + Num(x) + "\" y=\"" + Num(item.box.y + item.baseline) + "\"" + anchor + " font-size=\"" +
             Num(item.font_px) + "\"" + (item.bold ? " font-weight=\"bold\"" : "") + " fill=\"" + Hex(item.color) +
             "\"";
      break;
    }
  }
  out += attrs;
  if (item.kind == ItemKind::kText) {
    out += ">";
    out += children;
    out += XmlEscape(item.text);
    out += "</text>\n";
  } else if (children.empty()) {
    out += "/>\n";
  } else {
    out += ">";
    out += children;
    out += item.kind == ItemKind::kRect ? "</rect>\n" : "</line>\n";
  }
}

// The bubble's fill: its grey with dark diagonal lines (FramePainter draws the same).
std::string HatchPattern() {
  return "<defs><pattern id=\"hatch\" width=\"" + Num(kHatchSpacing) + "\" height=\"" + Num(kHatchSpacing) +
         "\" patternUnits=\"userSpaceOnUse\"><rect width=\"" + Num(kHatchSpacing) + "\" height=\"" +
         Num(kHatchSpacing) + "\" fill=\"" + Hex(palette::kBubble) + "\"/><path d=\"M0," + Num(kHatchSpacing) + " L" +
         Num(kHatchSpacing) + ",0\" stroke=\"" + Hex(palette::kHatch) + "\" stroke-width=\"1\"/></pattern></defs>\n";
}

std::string SvgOpen(const DisplayList& list, std::string_view attrs) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(list.width) + "\" height=\"" +
         std::to_string(list.height) + "\" viewBox=\"0 0 " + std::to_string(list.width) + " " +
         std::to_string(list.height) + "\" font-family=\"" + kFontFamily + ", sans-serif\" shape-rendering=\"crispEdges\"" +
         std::string(attrs) + ">\n" + HatchPattern();
}

}  // namespace ppsim::render

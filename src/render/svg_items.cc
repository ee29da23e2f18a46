#include "svg_items.h"

#include <cmath>
#include <cstdio>

#include "color_util.h"
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
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

void AppendSvgItem(std::string& out, const Item& item, double width, std::string_view attrs,
                   std::string_view children) {
  switch (item.kind) {
    case ItemKind::kRect:
      out += "<rect x=\"" + Num(item.box.x) + "\" y=\"" + Num(item.box.y) + "\" width=\"" + Num(width) +
             "\" height=\"" + Num(item.box.h) + "\" fill=\"" + Hex(item.color) + "\"";
      break;
    case ItemKind::kLine:
      out += "<line x1=\"" + Num(item.box.x) + "\" y1=\"" + Num(item.box.y) + "\" x2=\"" + Num(item.box.right()) +
             "\" y2=\"" + Num(item.box.bottom()) + "\" stroke=\"" + Hex(item.color) + "\" stroke-width=\"" +
             Num(item.line_width) + "\"";
      break;
    case ItemKind::kText:
      out += "<text x=\"" + Num(item.box.x) + "\" y=\"" + Num(item.box.y + item.baseline) + "\" font-size=\"" +
             Num(item.font_px) + "\"" + (item.bold ? " font-weight=\"bold\"" : "") + " fill=\"" + Hex(item.color) +
             "\"";
      break;
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

std::string SvgOpen(const DisplayList& list, std::string_view attrs) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(list.width) + "\" height=\"" +
         std::to_string(list.height) + "\" viewBox=\"0 0 " + std::to_string(list.width) + " " +
         std::to_string(list.height) + "\" font-family=\"" + kFontFamily + ", sans-serif\" shape-rendering=\"crispEdges\"" +
         std::string(attrs) + ">\n";
}

}  // namespace ppsim::render

#include "layout_builder.h"

#include <algorithm>

namespace ppsim::render {

double Builder::Fit(const std::string& text, double px, bool bold, double max_w) {
  while (px > min_px_ && m_.Measure(text, px, bold).w > max_w) px = std::max(min_px_, std::floor(px * 0.92));
  return px;
}

std::vector<std::string> Builder::Wrap(const std::string& text, double px, bool bold, double max_w) {
  if (m_.Measure(text, px, bold).w <= max_w) return {text};  // as written
  std::vector<std::string> lines;
  std::string line;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find(' ', at), text.size());
    const std::string word = text.substr(at, end - at);
    if (!line.empty() && m_.Measure(line + " " + word, px, bold).w > max_w) {
      lines.push_back(line);
      line = word;
    } else {
      line += (line.empty() ? "" : " ") + word;
    }
    at = end + 1;
  }
  lines.push_back(line);
  return lines;
}

double Builder::Paragraph(Role role, const std::string& text, double x, double y, double px, bool bold, Color color,
                          double max_w) {
  double h = 0;
  for (const std::string& line : Wrap(text, px, bold, max_w)) h += Text(role, line, x, y + h, px, bold, color).box.h;
  return h;
}

Item& Builder::Text(Role role, const std::string& text, double x, double y, double px, bool bold, Color color,
                    Align align) {
  const TextSize size = m_.Measure(text, px, bold);
  Item item;
  item.kind = ItemKind::kText;
  item.role = role;
  item.text = text;
  item.font_px = px;
  item.bold = bold;
  item.color = color;
  item.baseline = size.baseline;
  double left = x;
  if (align == Align::kCenter) left = x - size.w / 2;
  if (align == Align::kRight) left = x - size.w;
  item.box = {left, y, size.w, size.h};
  item.anchor = align == Align::kCenter ? Anchor::kMiddle : align == Align::kRight ? Anchor::kEnd : Anchor::kStart;
  item.clip = {0, 0, static_cast<double>(list_.width), static_cast<double>(list_.height)};
  list_.items.push_back(std::move(item));
  return list_.items.back();
}

Item& Builder::Rect(Role role, Box box, Color color) {
  Item item;
  item.kind = ItemKind::kRect;
  item.role = role;
  item.box = box;
  item.color = color;
  list_.items.push_back(std::move(item));
  return list_.items.back();
}

Item& Builder::Line(Role role, double x0, double y0, double x1, double y1, double width, Color color) {
  Item item;
  item.kind = ItemKind::kLine;
  item.role = role;
  item.box = {x0, y0, x1 - x0, y1 - y0};
  item.line_width = width;
  item.color = color;
  list_.items.push_back(std::move(item));
  return list_.items.back();
}

}  // namespace ppsim::render

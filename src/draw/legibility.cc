#include "ppsim/render/legibility.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ppsim::render {
namespace {

constexpr double kSlack = 0.5;      // pixels of overlap tolerated (anti-aliased edges)

bool Inside(const Box& in, const Box& out) {
  return in.x >= out.x - kSlack && in.y >= out.y - kSlack && in.right() <= out.right() + kSlack &&
         in.bottom() <= out.bottom() + kSlack;
}

bool Overlap(const Box& a, const Box& b) {
  return std::min(a.right(), b.right()) - std::max(a.x, b.x) > kSlack &&
         std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y) > kSlack;
}

bool SameTime(const Item& a, const Item& b) { return std::max(a.from, b.from) < std::min(a.until, b.until); }

int ViewWidth(const DisplayList& list) { return list.display_width > 0 ? list.display_width : list.width; }

std::string Px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string Quote(const std::string& text) { return "\"" + text + "\""; }

}  // namespace

Error CheckLegibility(const DisplayList& list, TextMeasurer& measurer) {
  const Box frame{0, 0, static_cast<double>(list.width), static_cast<double>(list.height)};
  struct Text {
    const Item* item;
    Box box;
  };
  std::vector<Text> texts;
  std::vector<std::string> problems;
  const double min_px = list.MinTextPx() - 0.01;  // 9 px where the picture is viewed
  for (const Item& item : list.items) {
    if (item.kind != ItemKind::kText) continue;
    const TextSize size = measurer.Measure(item.text, item.font_px, item.bold);
    const Box box{item.box.x, item.box.y, size.w, size.h};
    if (item.font_px < min_px) {
      problems.push_back(Quote(item.text) + " is too small (" + Px(item.font_px * list.width / ViewWidth(list)) +
                         " px at " + std::to_string(ViewWidth(list)) + " px wide)");
    } else if (!Inside(box, frame)) {
      problems.push_back(Quote(item.text) + " leaves the frame");
    } else if (!Inside(box, item.clip)) {
      problems.push_back(Quote(item.text) + " is clipped by its " +
                         (item.role == Role::kOpLabel ? "cell" : "container"));
    }
    texts.push_back({&item, box});
  }
  // Sweep by x: only boxes whose x ranges meet can overlap.
  std::sort(texts.begin(), texts.end(), [](const Text& a, const Text& b) { return a.box.x < b.box.x; });
  for (size_t i = 0; i < texts.size(); ++i) {
    for (size_t j = i + 1; j < texts.size() && texts[j].box.x < texts[i].box.right() - kSlack; ++j) {
      if (Overlap(texts[i].box, texts[j].box) && SameTime(*texts[i].item, *texts[j].item)) {
        problems.push_back(Quote(texts[i].item->text) + " overlaps " + Quote(texts[j].item->text));
      }
    }
  }
  if (problems.empty()) return Error::Ok();
  std::string message = "illegible at " + std::to_string(list.width) + "x" + std::to_string(list.height) +
                        (ViewWidth(list) != list.width ? " viewed " + std::to_string(ViewWidth(list)) + " px wide" : "") +
                        ": ";
  const size_t shown = std::min<size_t>(problems.size(), 6);
  for (size_t i = 0; i < shown; ++i) message += (i ? "; " : "") + problems[i];
  if (problems.size() > shown) message += "; and " + std::to_string(problems.size() - shown) + " more";
  return Fail(ErrorCode::kLegibility, message + " (try a larger size)");
}

}  // namespace ppsim::render

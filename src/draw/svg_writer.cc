#include "ppsim/render/svg_writer.h"

#include "svg_items.h"

namespace ppsim::render {

std::string WriteSvg(const DisplayList& list, Tick t) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + SvgOpen(list, "");
  if (!list.title.empty()) out += "<title>" + XmlEscape(list.title) + "</title>\n";
  for (const Item& item : list.items) {
    if (!item.VisibleAt(t)) continue;
    const double w = item.WidthAt(t);
    if (item.kind == ItemKind::kRect && w <= 0) continue;
    AppendSvgItem(out, item, w, "", "");
  }
  return out + "</svg>\n";
}

std::string WriteAnimatedSvg(const DisplayList& list, const Pacing& pacing) {
  const double spt = pacing.SecondsPerTick();
  auto at = [&](Tick t) { return Num(static_cast<double>(t) * spt) + "s"; };
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + SvgOpen(list, "");
  if (!list.title.empty()) out += "<title>" + XmlEscape(list.title) + "</title>\n";
  for (const Item& item : list.items) {
    if (item.from <= 0 && item.until == kForever) {
      AppendSvgItem(out, item, item.box.w, "", "");
      continue;
    }
    std::string children = "<set attributeName=\"visibility\" to=\"visible\" begin=\"" + at(item.from) + "\"/>";
    if (item.until != kForever) {
      children += "<set attributeName=\"visibility\" to=\"hidden\" begin=\"" + at(item.until) + "\"/>";
    }
    double w = item.box.w;
    if (item.grow_ticks > 1) {  // widen one tick at a time, as the frames do
      w = item.WidthAt(item.from);
      std::string values, times;
      for (Tick k = 0; k <= item.grow_ticks; ++k) {
        const Tick t = item.grow_from + k;
        if (t < item.from) continue;
        if (!values.empty()) {
          values += ';';
          times += ';';
        }
        values += Num(item.WidthAt(t));
        times += Num(static_cast<double>(t - item.from) / static_cast<double>(item.grow_ticks - 1));
      }
      children += "<animate attributeName=\"width\" calcMode=\"discrete\" values=\"" + values + "\" keyTimes=\"" +
                  times + "\" begin=\"" + at(item.from) + "\" dur=\"" +
                  Num(static_cast<double>(item.grow_ticks - 1) * spt) + "s\" fill=\"freeze\"/>";
    }
    AppendSvgItem(out, item, w, " visibility=\"hidden\"", children);
  }
  return out + "</svg>\n";
}

}  // namespace ppsim::render

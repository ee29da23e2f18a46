#include "ppsim/render/display_list.h"

#include <algorithm>
#include <cmath>

namespace ppsim::render {

double Item::WidthAt(Tick t) const {
  if (grow_ticks <= 0) return box.w;
  const Tick done = std::clamp<Tick>(t - grow_from, 0, grow_ticks);
  if (done == grow_ticks) return box.w;
  // Whole pixels, so a growing cell's edge is as crisp as a finished one.
  return std::round(box.w * static_cast<double>(done) / static_cast<double>(grow_ticks));
}

double DisplayList::MinTextPx() const {
  const double dw = display_width > 0 ? display_width : width;
  return 9.0 * std::max(1.0, static_cast<double>(width) / dw);
}

}  // namespace ppsim::render

// How the frame's height is used: charts follow the legend directly, and
// with one gauge per device the lanes get enough height for their labels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "ppsim/render/legibility.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

double Bottom(const DisplayList& list, Role role) {
  double y = 0;
  for (const Item& item : list.items)
    if (item.role == role) y = std::max(y, item.box.bottom());
  return y;
}
double Top(const DisplayList& list, Role role) {
  double y = 1e9;
  for (const Item& item : list.items)
    if (item.role == role) y = std::min(y, item.box.y);
  return y;
}

// A single run at 1200x420 used to sit in the middle of the frame, about
// 100 px below the legend, with rows of 24 px.
TEST(FrameFill, OneRunInAWideLowFrameFollowsTheLegend) {
  Fixture f({{"1F1B", "1f1b"}}, 4, 8, 1200, 420);
  f.input.closing.clear();
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk);
  const double legend_end = Bottom(*list, Role::kLegendLabel);
  const double caption = Top(*list, Role::kCaption);
  EXPECT_LT(caption - legend_end, 12) << "legend ends at " << legend_end << ", the caption starts at " << caption;
  double row_h = 0;
  for (const Item& item : list->items)
    if (item.role == Role::kGrid) row_h = item.box.h / 4;
  EXPECT_GE(row_h, 36);
}

// With two runs and closing lines, the closing lines follow the charts.
TEST(FrameFill, ClosingLinesFollowTheLastChart) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6, 1200, 420);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk);
  const double axis_end = Bottom(*list, Role::kAxisLabel);
  const double closing = Top(*list, Role::kClosing);
  EXPECT_GE(closing, axis_end);
  EXPECT_LT(closing - axis_end, 16);
  EXPECT_LE(Bottom(*list, Role::kClosing), 420);
}

}  // namespace
}  // namespace ppsim::render::testing

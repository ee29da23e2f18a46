// The final frame is the finished picture: no "now" cursor on it, also when
// cycles aggregate into strips and the last strip runs past the makespan.
#include <gtest/gtest.h>

#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

TEST(FinalFrame, HasNoCursor) {
  for (int M : {6, 1000}) {  // one cell a cycle, and strips of several cycles
    Fixture f({{"1F1B", "1f1b"}}, M == 6 ? 4 : 64, M, 1280, 720);
    auto m = NewMeasurer();
    Result<DisplayList> list = Layout(f.input, *m);
    ASSERT_TRUE(list.ok()) << list.error().message;
    int cursors = 0, on_last = 0;
    for (const Item& item : list->items) {
      if (item.role != Role::kCursor) continue;
      ++cursors;
      if (item.VisibleAt(list->last_tick)) ++on_last;
    }
    EXPECT_GT(cursors, 0) << "M=" << M;
    EXPECT_EQ(on_last, 0) << "M=" << M << ", strips of " << list->ticks_per_strip;
    if (M == 1000) {
      EXPECT_GT(list->ticks_per_strip, 1);
    }
  }
}

}  // namespace
}  // namespace ppsim::render::testing

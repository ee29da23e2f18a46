// A whole backward (B + W in one op: 1F1B's, and DualPipe's full ones) never
// passes for an input-gradient B: it carries W's colour along its top, and
// the legend lists each kind of backward the picture holds, and only those.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

std::set<std::string> LegendLabels(const DisplayList& list) {
  std::set<std::string> out;
  for (const Item& it : list.items)
    if (it.role == Role::kLegendLabel) out.insert(it.text);
  return out;
}

TEST(OpLooks, WholeAndInputGradientBackwardsDiffer) {
  Fixture f({{"1F1B", "1f1b"}, {"ZB-H1", "zb-h1"}}, 4, 8);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  std::set<std::tuple<int, int, Tick>> marked;  // run, device, start of each whole-backward mark
  for (const Item& it : list->items)
    if (it.role == Role::kWholeMark) {
      EXPECT_EQ(it.color, palette::kWeightGrad);
      marked.insert({it.run, it.device, it.tick0});
    }
  int whole = 0, input = 0;
  for (const Item& it : list->items) {
    if (it.role != Role::kOp || it.op_kind != 'B') continue;
    const bool has = marked.count({it.run, it.device, it.tick0}) > 0;
    EXPECT_EQ(has, it.run == 0) << "run " << it.run << " B" << it.microbatch;  // 1F1B's are whole, ZB-H1's not
    (it.run == 0 ? whole : input) += 1;
  }
  EXPECT_EQ(whole, 32);
  EXPECT_EQ(input, 32);
  const std::set<std::string> legend = LegendLabels(*list);
  EXPECT_TRUE(legend.count("whole backward (B + W in one op)"));
  EXPECT_TRUE(legend.count("input-gradient backward (B)"));
  EXPECT_TRUE(legend.count("weight-grad (W)"));
}

TEST(OpLooks, TheLegendListsOnlyTheKindsDrawn) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const std::set<std::string> legend = LegendLabels(*list);
  EXPECT_TRUE(legend.count("backward (B + W in one op)"));
  EXPECT_FALSE(legend.count("input-gradient backward (B)"));
  EXPECT_FALSE(legend.count("weight-grad (W)"));
}

}  // namespace
}  // namespace ppsim::render::testing

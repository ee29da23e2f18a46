// Identical cells look identical: whether an op's cell carries its label is
// decided once per duration in a run, from the narrowest such cell, so one
// pixel of rounding never drops every other label (V-Half's B cells did).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

// Frames 1000 to 1920 wide (16:9); before, e.g. 1600x900 labelled 24 of the
// 64 two-tick F cells of each run.
TEST(LabelDecision, EqualCellsAreAllLabelledOrNone) {
  for (int w = 1000; w <= 1920; w += 20) { const int h = w * 9 / 16;
    Fixture f({{"ZB-V", "zbv"}, {"V-Half", "v-half"}, {"V-Min", "v-min"}}, 4, 8, w, h);
    auto m = NewMeasurer();
    Result<DisplayList> list = Layout(f.input, *m);
    ASSERT_TRUE(list.ok()) << list.error().message;
    // (run, kind, duration, label text length) -> labelled?, over the cells of the run.
    std::set<std::tuple<int, int, Tick, int, Tick>> labelled;  // run, device, start, ...
    for (const Item& it : list->items)
      if (it.role == Role::kOpLabel) labelled.insert({it.run, it.device, it.tick0, 0, 0});
    std::map<std::tuple<int, char, Tick, size_t>, std::pair<int, int>> seen;  // -> (labelled, all)
    for (const Item& it : list->items) {
      if (it.role != Role::kOp) continue;
      const size_t digits = std::to_string(it.microbatch).size();
      auto& [yes, all] = seen[{it.run, it.op_kind, it.tick1 - it.tick0, digits}];
      yes += labelled.count({it.run, it.device, it.tick0, 0, 0}) > 0;
      ++all;
    }
    for (const auto& [key, counts] : seen) {
      const auto& [run, kind, duration, digits] = key;
      EXPECT_TRUE(counts.first == 0 || counts.first == counts.second)
          << w << "x" << h << " run " << run << " " << kind << " lasting " << duration << " (" << digits
          << "-digit microbatch): " << counts.first << " of " << counts.second << " labelled";
    }
  }
}

}  // namespace
}  // namespace ppsim::render::testing

// The default gauge: what the fullest device holds at each tick, counted the
// allocator's way (from the start of F to the end of its B or W), so that a
// picture never ranks runs opposite to what fits on one GPU. 1F1B against
// ZB-V on one model, P = 4, M = 8: across the cluster ZB-V holds 14
// stage-sets to 1F1B's 9, yet its fullest device holds 4, as 1F1B's does
// (the Zero Bubble paper: "activation memory 1x 1F1B").
#include <gtest/gtest.h>

#include "png_reader.h"
#include "render/frame_painter.h"
#include "ppsim/render/text_painter.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

const Item* GaugeText(const DisplayList& list, int run, const std::string& text) {
  for (const Item& item : list.items)
    if (item.role == Role::kGaugeLabel && item.run == run && item.text == text) return &item;
  return nullptr;
}

// The tallest gauge bar of each run, in pixels of the last frame.
std::vector<int> TallestBars(const DisplayList& list) {
  PngPixels png(*RenderPng(list, list.last_tick));
  std::vector<int> tallest(list.runs.size(), 0);
  for (const Item& item : list.items) {
    if (item.role != Role::kGaugeBar) continue;
    const int x = static_cast<int>(item.box.x + item.box.w / 2);
    const int bottom = static_cast<int>(item.box.bottom()) - 1;
    int h = 0;
    while (png.At(x, bottom - h) == palette::kHeld) ++h;
    tallest[item.run] = std::max(tallest[item.run], h);
  }
  return tallest;
}

TEST(FullestGauge, IsTheDefaultAndRanksRunsAsOneDeviceSeesThem) {
  Fixture f({{"1F1B", "1f1b"}, {"ZB-V", "zbv"}}, 4, 8);
  LayoutInput input = f.input;
  input.gauge = LayoutInput{}.gauge;
  EXPECT_EQ(input.gauge, GaugeMode::kFullest);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(list->gauge_den, 2);
  EXPECT_EQ(list->gauge_scale, 8);  // 4 stage-sets: both runs' fullest device
  EXPECT_NE(GaugeText(*list, 0, "fullest device peak 4 stage-sets"), nullptr);
  EXPECT_NE(GaugeText(*list, 1, "fullest device peak 4 stage-sets"), nullptr);
  const std::vector<int> fullest = TallestBars(*list);
  ASSERT_GT(fullest[0], 20);
  EXPECT_LE(fullest[1], fullest[0]);  // ZB-V at or below 1F1B
  EXPECT_NEAR(fullest[1], fullest[0], 1);
  // The cluster gauge, asked for, ranks them the other way: 14 against 9.
  input.gauge = GaugeMode::kCluster;
  Result<DisplayList> cluster = Layout(input, *m);
  ASSERT_TRUE(cluster.ok()) << cluster.error().message;
  EXPECT_NE(GaugeText(*cluster, 1, "peak 14 stage-sets"), nullptr);
  const std::vector<int> summed = TallestBars(*cluster);
  EXPECT_GT(summed[1], summed[0]);
}

// The terminal says what the held row counts, and the series is the fullest
// device's: 1F1B's first device climbs to P = 4 and holds it.
TEST(FullestGauge, TheTextChartSaysWhatItCounts) {
  Fixture f({{"1F1B", "1f1b"}}, 4, 6);
  f.input.gauge = GaugeMode::kFullest;
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const std::string text = PaintText(*list, list->last_tick, 100);
  EXPECT_NE(text.find("held: activations on the fullest device (F start to B/W end)"), std::string::npos) << text;
  EXPECT_NE(text.find("held  1  2  3  4  4  4  4  4  4  4  4  4  3  3  2  2  1  1"), std::string::npos) << text;
}

}  // namespace
}  // namespace ppsim::render::testing

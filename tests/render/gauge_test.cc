// The memory gauge in one unit: whole-stage sets, shared by every run.
// 1F1B (9 stage-sets at its peak) against interleaved v = 2 (28 half-stage
// sets = 14 stage-sets), P = 4, M = 8.
#include <gtest/gtest.h>

#include "png_reader.h"
#include "render/frame_painter.h"
#include "ppsim/render/legibility.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

class GaugeTest : public ::testing::Test {
 protected:
  GaugeTest() : fixture_({{"1F1B", "1f1b"}, {"Interleaved", "interleaved", 2}}, 4, 8) {
    measurer_ = NewMeasurer();
    Result<DisplayList> list = Layout(fixture_.input, *measurer_);
    EXPECT_TRUE(list.ok()) << list.error().message;
    list_ = std::move(*list);
  }
  const Item* Text(int run, const std::string& text) const {
    for (const Item& item : list_.items)
      if (item.role == Role::kGaugeLabel && item.run == run && item.text == text) return &item;
    return nullptr;
  }
  const Item* Of(Role role, int run) const {
    for (const Item& item : list_.items)
      if (item.role == role && item.run == run) return &item;
    return nullptr;
  }
  Fixture fixture_;
  std::unique_ptr<TextMeasurer> measurer_;
  DisplayList list_;
};

TEST_F(GaugeTest, SharesOneScaleInStageSets) {
  EXPECT_EQ(list_.gauge_den, 2);     // values in half stage-sets
  EXPECT_EQ(list_.gauge_scale, 28);  // = 14 stage-sets, interleaved's peak
  EXPECT_NE(Text(1, "peak 14 stage-sets"), nullptr);
  EXPECT_NE(Text(0, "peak 9 stage-sets"), nullptr);
  for (int run : {0, 1}) {  // 0 and the maximum on the edge
    EXPECT_NE(Text(run, "14"), nullptr) << run;
    EXPECT_NE(Text(run, "0"), nullptr) << run;
  }
}

TEST_F(GaugeTest, BarsAreDrawnInStageSets) {
  // The tallest bar of each run, in pixels: 9 against 14 stage-sets.
  PngPixels png(*RenderPng(list_, list_.last_tick));
  double tallest[2] = {0, 0};
  for (const Item& item : list_.items) {
    if (item.role == Role::kGaugeBar) {
      const int x = static_cast<int>(item.box.x + item.box.w / 2);
      const int bottom = static_cast<int>(item.box.bottom()) - 1;
      int h = 0;
      while (png.At(x, bottom - h) == palette::kHeld) ++h;
      tallest[item.run] = std::max<double>(tallest[item.run], h);
    }
  }
  ASSERT_GT(tallest[1], 20);
  EXPECT_NEAR(tallest[0] / tallest[1], 9.0 / 14.0, 0.02);
}

TEST_F(GaugeTest, PeakLineNeverRunsAheadOfThePlayedCycles) {
  const Item* line = Of(Role::kPeakLine, 1);
  const Item* back = Of(Role::kGaugeBack, 1);
  ASSERT_NE(line, nullptr);
  ASSERT_NE(back, nullptr);
  const Tick end = fixture_.timeline(1).makespan;
  const double cw = back->box.w / static_cast<double>(list_.last_tick);
  for (Tick t = line->from; t <= end; ++t) EXPECT_LE(line->WidthAt(t), t * cw + 1) << "tick " << t;
  EXPECT_NEAR(line->WidthAt(end), end * cw, 1);
}

// --gauge device: one lane per device, each lane's peak printed beside it
// and equal to that device's measured peak; the header names the unit and
// the full lane (the largest per-device peak of all runs: GPipe's 8).
TEST(DeviceGauge, OneLanePerDeviceWithItsMeasuredPeak) {
  Fixture fixture({{"1F1B", "1f1b"}, {"GPipe", "gpipe"}}, 4, 8);
  fixture.input.gauge = GaugeMode::kDevice;
  auto measurer = NewMeasurer();
  Result<DisplayList> list = Layout(fixture.input, *measurer);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(CheckLegibility(*list, *measurer).code, ErrorCode::kOk) << CheckLegibility(*list, *measurer).message;
  EXPECT_EQ(list->gauge_scale, 8);
  for (int run : {0, 1}) {
    const std::vector<std::int64_t>& peaks = fixture.metrics(run).activations.peak_per_device;
    bool header = false;
    int lanes = 0;
    std::vector<std::string> labels(4);
    for (const Item& item : list->items) {
      if (item.run != run) continue;
      if (item.role == Role::kGaugeLabel && item.text == "held per device, in stage-sets (a full lane = 8)") header = true;
      if (item.role == Role::kGaugeBack && item.device >= 0) ++lanes;
      if (item.role == Role::kGaugeLabel && item.device >= 0 && item.text.rfind("peak ", 0) == 0) {
        labels[item.device] = item.text;
        EXPECT_EQ(item.value, peaks[item.device]);
      }
      if (item.role == Role::kGaugeBar) {
        EXPECT_GE(item.device, 0);  // no cluster bars
      }
    }
    EXPECT_TRUE(header) << run;
    EXPECT_EQ(lanes, 4) << run;
    for (int d = 0; d < 4; ++d)
      EXPECT_EQ(labels[d], peaks[d] > 0 ? "peak " + std::to_string(peaks[d]) : "") << "run " << run << " d" << d;
  }
  // 1F1B's measured per-device peaks under "held": 4 3 2 0; GPipe's 8 8 8 7.
  EXPECT_EQ(fixture.metrics(0).activations.peak_per_device, (std::vector<std::int64_t>{4, 3, 2, 0}));
}

}  // namespace
}  // namespace ppsim::render::testing

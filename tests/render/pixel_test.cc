// Pixel facts on rendered PNG frames of the GPipe-vs-1F1B scene (P=4, M=6):
// the colours at known cells and the heights of the memory gauge's bars.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "png_reader.h"
#include "render/frame_painter.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

class PixelTest : public ::testing::Test {
 protected:
  PixelTest() : fixture_({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6) {
    measurer_ = NewMeasurer();
    Result<DisplayList> list = Layout(fixture_.input, *measurer_);
    EXPECT_TRUE(list.ok()) << list.error().message;
    list_ = std::move(*list);
  }

  // The item of `role` matching run/device/tick0 (and the op's kind/microbatch for ops).
  const Item& Find(Role role, int run, int device, Tick tick0, char kind = 0, int microbatch = -1) const {
    for (const Item& item : list_.items) {
      if (item.role == role && item.run == run && item.device == device && item.tick0 == tick0 &&
          (kind == 0 || item.op_kind == kind) && (microbatch < 0 || item.microbatch == microbatch)) {
        return item;
      }
    }
    ADD_FAILURE() << "no such item";
    return list_.items.front();
  }

  // A bubble cell is its grey with darker diagonal hatching (not colour alone).
  static void ExpectHatchedBubble(const PngPixels& png, const Item& cell) {
    int grey = 0, hatch = 0;
    for (int y = static_cast<int>(cell.box.y) + 1; y < static_cast<int>(cell.box.bottom()) - 1; ++y) {
      for (int x = static_cast<int>(cell.box.x) + 1; x < static_cast<int>(cell.box.right()) - 1; ++x) {
        const Color c = png.At(x, y);
        grey += c == palette::kBubble;
        hatch += c.r == c.g && c.g == c.b && c.r < palette::kBubble.r - 20;
      }
    }
    EXPECT_GT(grey, hatch) << "at " << cell.box.x << "," << cell.box.y;
    EXPECT_GT(hatch, cell.box.w / 2) << "at " << cell.box.x << "," << cell.box.y;
  }

  PngPixels Frame(Tick t) const {
    Result<std::string> png = RenderPng(list_, t);
    EXPECT_TRUE(png.ok());
    return PngPixels(*png);
  }

  // A point inside the cell, clear of its label.
  static std::pair<int, int> Corner(const Item& cell) {
    return {static_cast<int>(cell.box.x) + 3, static_cast<int>(cell.box.y) + 3};
  }

  Fixture fixture_;
  std::unique_ptr<TextMeasurer> measurer_;
  DisplayList list_;
};

TEST_F(PixelTest, FinalFrameColoursKnownCells) {
  PngPixels png = Frame(list_.last_tick);
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png.width(), 1920);
  EXPECT_EQ(png.height(), 1080);
  // F0 on device 0 runs in cycle 0 in both schedules.
  for (int run : {0, 1}) {
    auto [x, y] = Corner(Find(Role::kOp, run, 0, 0, 'F', 0));
    EXPECT_EQ(png.At(x, y), palette::kForward) << "run " << run;
  }
  // GPipe: device 0 idles in cycles 6..11 (F5 ends at 6, B0 starts at 12).
  ExpectHatchedBubble(png, Find(Role::kBubble, 0, 0, 6));
  // GPipe: B0 on device 0 in cycle 12, a whole backward (B + W in one op):
  // W's colour along its top, B's below.
  const Item& b0 = Find(Role::kOp, 0, 0, 12, 'B', 0);
  auto [ox, oy] = Corner(b0);
  EXPECT_EQ(png.At(ox, oy), palette::kWeightGrad);
  EXPECT_EQ(png.At(ox, static_cast<int>(b0.box.y + std::floor(b0.box.h / 6)) + 1), palette::kBackward);
  // Device 3 is idle in cycle 0 in both.
  ExpectHatchedBubble(png, Find(Role::kBubble, 1, 3, 0));
}

TEST_F(PixelTest, FrameAtTickShowsOnlyOpsStartedBefore) {
  PngPixels png = Frame(5);
  // GPipe device 0: F4 started at 4 (drawn), F5 starts at 5 (not yet).
  auto [x4, y4] = Corner(Find(Role::kOp, 0, 0, 4, 'F', 4));
  auto [x5, y5] = Corner(Find(Role::kOp, 0, 0, 5, 'F', 5));
  EXPECT_EQ(png.At(x4, y4), palette::kForward);
  EXPECT_EQ(png.At(x5, y5), palette::kGrid);
}

TEST_F(PixelTest, GaugeBarsAreProportionalToHeldActivations) {
  PngPixels png = Frame(list_.last_tick);
  EXPECT_EQ(list_.gauge_scale, 23);  // GPipe's peak: the shared scale
  for (int run : {0, 1}) {
    const Item* back = nullptr;
    for (const Item& item : list_.items) {
      if (item.role == Role::kGaugeBack && item.run == run) back = &item;
    }
    ASSERT_NE(back, nullptr);
    const int bottom = static_cast<int>(back->box.bottom()) - 1;
    // The scale's top is GPipe's peak line (every gauge has the same
    // height); above it, a line of headroom for "peak 23 stage-sets".
    double full = 0;
    for (const Item& item : list_.items)
      if (item.role == Role::kPeakLine && item.run == 0) full = item.box.y;
    for (const Item& item : list_.items)
      if (item.role == Role::kGaugeBack && item.run == 0) full = item.box.bottom() - full;
    ASSERT_GT(full, 0);
    EXPECT_LT(full, back->box.h);
    const StepSeries& held = fixture_.metrics(run).activations.cluster;
    for (Tick k = 0; k < fixture_.timeline(run).makespan; ++k) {
      // Count the gauge-coloured pixels up the column through the middle of tick k's bar.
      int x = 0;
      for (const Item& item : list_.items) {
        if (item.role == Role::kGaugeBack && item.run == run) {
          const double cw = (back->box.w) / static_cast<double>(list_.last_tick);
          x = static_cast<int>(item.box.x + (k + 0.5) * cw);
        }
      }
      int height = 0;
      while (height < full && png.At(x, bottom - height) == palette::kHeld) ++height;
      EXPECT_NEAR(height, held.At(k) * full / 23.0, 1.0) << "run " << run << " tick " << k;
    }
  }
}

}  // namespace
}  // namespace ppsim::render::testing

// Large runs as `ppsim render` draws them: cycles aggregate by what can be
// seen where the picture is viewed (two display pixels a column), not by how
// many ops there are; no colour is drawn that the legend does not list; the
// final frame has no "now" cursor; and a video that would play over 30 s at
// a frame a cycle plays several cycles a frame, and says so.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/run_tool.h"
#include "png_reader.h"
#include "ppsim/render/render.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kScene = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";

class LargeRunsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ppsim_large_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

// P = 32, M = 256 (574 cycles): a cycle is 3 pixels of a 1920 px frame, 1.2
// where the page is viewed (760 px). The page aggregates two cycles a column
// (it drew every op: 6.6 MB); a PNG viewed at its own width draws every op.
TEST_F(LargeRunsCli, CyclesAggregateByDisplayPixels) {
  const std::string page = Path("p.html"), png = Path("p.svg");
  auto run = ppsim::testing::RunPpsim("render " + kScene + " --set P=32 --set M=256 -o " + page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string html = ppsim::testing::Slurp(page);
  EXPECT_THAT(html, HasSubstr("aggregated: one column = 2 cycles"));
  EXPECT_LT(html.size(), 2'000'000u);
  run = ppsim::testing::RunPpsim("render " + kScene + " --set P=32 --set M=256 --display-width 1920 -o " + png);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(ppsim::testing::Slurp(png), Not(HasSubstr("aggregated")));
}

// P = 64, M = 1024 on its final PNG: every colour of the charts' cells is a
// swatch of the legend (1F1B's steady state, F and B in one strip, is
// "F and B in one aggregated cell", no longer a brown the legend lacked),
// and no pixel is the cursor's red.
TEST_F(LargeRunsCli, EveryColourIsInTheLegendAndNoCursorIsLeft) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 64, 1024);
  f.input.gauge = GaugeMode::kFullest;
  RenderOptions options;
  options.format = OutputFormat::kPng;
  Result<DisplayList> list = LayOut(f.input, options);
  ASSERT_TRUE(list.ok()) << list.error().message;
  std::set<std::string> swatches, cells;
  std::string legend;
  auto hex = [](Color c) { return std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b); };
  for (const Item& item : list->items) {
    if (item.role == Role::kLegendSwatch) swatches.insert(hex(item.color));
    if (item.role == Role::kLegendLabel) legend += item.text + "\n";
    if (item.role == Role::kOp || item.role == Role::kBubble) cells.insert(hex(item.color));
  }
  EXPECT_THAT(legend, HasSubstr("F and B in one aggregated cell"));
  for (const std::string& c : cells) EXPECT_EQ(swatches.count(c), 1u) << c << " is drawn, not in the legend";

  const std::string png = Path("big.png");
  auto run = ppsim::testing::RunPpsim("render " + kScene + " --set P=64 --set M=1024 -o " + png);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  PngPixels pixels(ppsim::testing::Slurp(png));
  ASSERT_TRUE(pixels.ok());
  int red = 0;
  for (int y = 0; y < pixels.height(); ++y)
    for (int x = 0; x < pixels.width(); ++x) red += pixels.At(x, y) == palette::kCursor;
  EXPECT_EQ(red, 0);
}

// GPipe and 1F1B at P = 16, M = 1024: 2,078 cycles, 69 s at a frame a cycle
// at 30 fps. The video plays 6 cycles a frame (12 s and the 1 s poster and 5 s
// hold), and its note says so.
TEST_F(LargeRunsCli, ALongVideoPlaysSeveralCyclesAFrameAndSaysSo) {
  const std::string mp4 = Path("long.mp4");
  auto run = ppsim::testing::RunPpsim("render " + kScene + " --set P=16 --set M=1024 --size 960x540 --json -o " + mp4);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json out = nlohmann::json::parse(run.out);
  const double seconds = out["outputs"][0]["seconds"].get<double>();
  EXPECT_LT(seconds, 30.0);
  EXPECT_GT(seconds, 15.0);
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 16, 1024, 960, 540);
  RenderOptions options;
  options.format = OutputFormat::kMp4;
  Result<DisplayList> list = LayOut(f.input, options);
  ASSERT_TRUE(list.ok()) << list.error().message;
  std::string note;
  for (const Item& item : list->items)
    if (item.role == Role::kNote) note = item.text;
  EXPECT_THAT(note, HasSubstr("the video plays 6 cycles a frame"));
  EXPECT_EQ(PaceFor(2078, 30).ticks_per_frame, 6);
  EXPECT_EQ(PaceFor(574, 30).ticks_per_frame, 1);  // 19 s at a frame a cycle: every cycle shown
}

}  // namespace
}  // namespace ppsim::render::testing

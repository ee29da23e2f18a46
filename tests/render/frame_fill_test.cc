// How the frame's height is used: charts follow the legend directly, and
// with one gauge per device the lanes get enough height for their labels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "ppsim/render/legibility.h"
#include "draw/chart_layout.h"
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

// The lanes' peaks as the picture states them: per lane "peak N" beside it,
// or, in lanes too thin for a 9 px label, listed in the header at the end.
std::vector<std::string> StatedPeaks(const DisplayList& list, int run, int lanes) {
  std::vector<std::string> out(lanes);
  const std::string listed = "peaks, top to bottom: ";
  for (const Item& item : list.items) {
    if (item.role != Role::kGaugeLabel || item.run != run || !item.VisibleAt(list.last_tick)) continue;
    if (item.text.rfind("peak ", 0) == 0 && item.device >= 0) out[item.device] = item.text.substr(5);
    const size_t at = item.text.find(listed);
    if (at == std::string::npos) continue;
    std::string rest = item.text.substr(at + listed.size()) + " \u00B7 ";
    for (int lane = 0; lane < lanes; ++lane) {
      const size_t cut = rest.find(" \u00B7 ");
      out[lane] = rest.substr(0, cut);
      rest = rest.substr(cut + std::string(" \u00B7 ").size());
    }
  }
  return out;
}

// --gauge device with three runs used to be refused at 760x428 ("at most 2
// fit") and drawn with unlabelled 4 px lanes at 1920x1080. Now each device's
// share of the height is its row and its lane: at 760x428 the lanes are at
// least 5 px and the header lists their peaks; at 760x600 and 1920x1080 every
// lane is labelled with its device and its peak. Stated peaks are measured ones.
TEST(FrameFill, ThreeRunsWithAGaugePerDeviceFitAt760) {
  for (auto [w, h, labelled] : {std::tuple{760, 428, false}, std::tuple{760, 600, true}, std::tuple{1920, 1080, true}}) {
    Fixture f({{"1F1B", "1f1b"}, {"ZB-V", "zbv"}, {"DualPipeV", "dualpipev"}}, 4, 8, w, h);
    f.input.gauge = GaugeMode::kDevice;
    auto m = NewMeasurer();
    Result<DisplayList> list = Layout(f.input, *m);
    ASSERT_TRUE(list.ok()) << w << "x" << h << ": " << list.error().message;
    const Error e = CheckLegibility(*list, *m);
    EXPECT_EQ(e.code, ErrorCode::kOk) << w << "x" << h << ": " << e.message;
    for (int run = 0; run < 3; ++run) {
      const std::int64_t per_set = list->gauge_den / (run == 0 ? 1 : 2);
      const std::vector<std::int64_t>& peaks = f.metrics(run).activations.peak_per_device;
      const std::vector<std::string> stated = StatedPeaks(*list, run, 4);
      int lanes = 0, names = 0;
      for (const Item& item : list->items) {
        if (item.run != run) continue;
        if (item.role == Role::kGaugeBack && item.device >= 0) {
          ++lanes;
          EXPECT_GE(item.box.h + 1, 5) << w << "x" << h;
        }
        names += item.role == Role::kGaugeLabel && item.device >= 0 && item.text[0] == 'd';
      }
      EXPECT_EQ(lanes, 4);
      EXPECT_EQ(names, labelled ? 4 : 0) << w << "x" << h;
      for (int d = 0; d < 4; ++d) {
        if (!labelled || peaks[d] > 0) {
          EXPECT_EQ(stated[d], Sets(peaks[d] * per_set, list->gauge_den)) << w << "x" << h << " run " << run << " d" << d;
        }
      }
    }
  }
}

// Too many runs for lanes of 5 px: refused, saying how many fit — and that
// many do fit.
TEST(FrameFill, TooManyRunsWithAGaugePerDeviceAreRefusedSayingHowManyFit) {
  std::vector<RunSpec> runs(6, {"1F1B", "1f1b"});
  for (size_t i = 0; i < runs.size(); ++i) runs[i].name += std::to_string(i);
  Fixture f(runs, 4, 8, 760, 428);
  f.input.gauge = GaugeMode::kDevice;
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_FALSE(list.ok());
  std::smatch fit;
  const std::string message = list.error().message;
  ASSERT_TRUE(std::regex_search(message, fit, std::regex("at most ([0-9]) fit with a gauge per device"))) << message;
  const int k = std::stoi(fit[1]);
  ASSERT_GE(k, 1);
  ASSERT_LT(k, 6);
  Fixture fewer(std::vector<RunSpec>(runs.begin(), runs.begin() + k), 4, 8, 760, 428);
  fewer.input.gauge = GaugeMode::kDevice;
  Result<DisplayList> ok = Layout(fewer.input, *m);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(CheckLegibility(*ok, *m).code, ErrorCode::kOk);
}

}  // namespace
}  // namespace ppsim::render::testing

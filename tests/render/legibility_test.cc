// Any size renders legibly: the layout scales cells, fonts, in-cell labels
// and the tick axis with P, M, v and the number of runs, and the Pango-based
// check finds no overlapping, clipped or out-of-frame text.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ppsim/render/legibility.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

struct Case {
  const char* name;
  std::vector<RunSpec> runs;
  int P, M;
  bool expect_cell_labels;
};

class LegibleAt : public ::testing::TestWithParam<Case> {};

int Count(const DisplayList& list, Role role) {
  int n = 0;
  for (const Item& item : list.items) n += item.role == role;
  return n;
}

TEST_P(LegibleAt, FullHd) {
  const Case& c = GetParam();
  Fixture f(c.runs, c.P, c.M);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const Error e = CheckLegibility(*list, *m);
  EXPECT_EQ(e.code, ErrorCode::kOk) << e.message;
  // Every op of every run has its cell.
  std::int64_t ops = 0;
  for (size_t i = 0; i < c.runs.size(); ++i) ops += f.timeline(static_cast<int>(i)).schedule.op_count();
  EXPECT_EQ(Count(*list, Role::kOp), ops);
  EXPECT_EQ(Count(*list, Role::kOpLabel) > 0, c.expect_cell_labels);
  // Every op with a label has exactly one, inside its cell.
  for (const Item& item : list->items) {
    if (item.role != Role::kOpLabel) continue;
    EXPECT_GE(item.box.x, item.clip.x);
    EXPECT_LE(item.box.right(), item.clip.right());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, LegibleAt,
    ::testing::Values(Case{"P4_M6", {{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6, true},
                      Case{"P8_M32", {{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 8, 32, true},
                      Case{"P16_M64", {{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 16, 64, false},
                      Case{"P32_M256", {{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 32, 256, false},
                      Case{"interleaved_v4", {{"1F1B", "1f1b"}, {"interleaved v=4", "interleaved", 4}}, 4, 8, true},
                      Case{"four_runs", {{"GPipe", "gpipe"}, {"1F1B", "1f1b"}, {"interleaved", "interleaved", 2},
                                         {"looped BFS", "looped-bfs", 2}}, 4, 8, true}),
    [](const ::testing::TestParamInfo<Case>& param) { return param.param.name; });

TEST(Legibility, TooLongClosingLineIsNamed) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6, 640, 360);
  f.input.closing = {"short", std::string(200, 'x')};
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const Error e = CheckLegibility(*list, *m);
  EXPECT_EQ(e.code, ErrorCode::kLegibility);
  EXPECT_THAT(e.message, ::testing::HasSubstr("illegible at 640x360"));
  EXPECT_THAT(e.message, ::testing::HasSubstr("\"" + std::string(200, 'x') + "\" leaves the frame"));
}

TEST(Legibility, TooSmallFrameFails) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 32, 256, 320, 180);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  const Error e = list.ok() ? CheckLegibility(*list, *m) : list.error();
  EXPECT_EQ(e.code, ErrorCode::kLegibility);
  EXPECT_THAT(e.message, ::testing::HasSubstr(" size"));  // the field; the CLI knows it as --size
  EXPECT_THAT(e.Text(), ::testing::Not(::testing::HasSubstr("--")));
}

TEST(Legibility, OverlappingTextIsNamed) {
  DisplayList list;
  list.width = 400;
  list.height = 200;
  auto m = NewMeasurer();
  for (const char* text : {"first label", "second label"}) {
    Item item;
    item.kind = ItemKind::kText;
    item.text = text;
    item.font_px = 16;
    item.box = {10, 10, 0, 0};
    item.clip = {0, 0, 400, 200};
    list.items.push_back(item);
  }
  Error e = CheckLegibility(list, *m);
  EXPECT_EQ(e.code, ErrorCode::kLegibility);
  EXPECT_THAT(e.message, ::testing::HasSubstr("\"first label\" overlaps \"second label\""));
  // Not at the same time: fine.
  list.items[0].until = 3;
  list.items[1].from = 3;
  EXPECT_EQ(CheckLegibility(list, *m).code, ErrorCode::kOk);
  // Leaving the frame.
  list.items[1].box.x = 350;
  EXPECT_THAT(CheckLegibility(list, *m).message, ::testing::HasSubstr("\"second label\" leaves the frame"));
}

}  // namespace
}  // namespace ppsim::render::testing

namespace ppsim::render::testing {
namespace {

// What scaling does at P=32, M=256 on 1920x1080: no in-cell labels, device
// labels on every 2^k-th row, the tick axis on a 1-2-5 step.
TEST(Scaling, LargeScenesThinLabelsInsteadOfCrowdingThem) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 32, 256);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok());
  std::vector<int> devices;
  std::vector<Tick> ticks;
  for (const Item& item : list->items) {
    if (item.run != 0) continue;
    if (item.role == Role::kDeviceLabel) devices.push_back(item.device);
    if (item.role == Role::kAxisLabel && item.text != "cycle") ticks.push_back(item.tick0);
  }
  ASSERT_GE(devices.size(), 2u);
  const int dstep = devices[1] - devices[0];
  EXPECT_GT(dstep, 1);
  EXPECT_EQ(dstep & (dstep - 1), 0);  // a power of two
  ASSERT_GE(ticks.size(), 2u);
  const Tick tstep = ticks[1] - ticks[0];
  EXPECT_GT(tstep, 1);
  EXPECT_THAT((std::vector<Tick>{2, 5, 10, 20, 50, 100}), ::testing::Contains(tstep));
  EXPECT_EQ(list->last_tick, 574);
  EXPECT_EQ(list->gauge_scale, 8191);  // GPipe's peak sets the shared scale
}

}  // namespace
}  // namespace ppsim::render::testing

// What a reader must see without counting cells: where every run finishes,
// each device row's idle count, how much work is done so far, text that is
// readable where the picture is viewed, labels that contrast with their
// cells, and large runs drawn in aggregate instead of refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "draw/color_util.h"
#include "ppsim/render/legibility.h"
#include "ppsim/render/pacing.h"
#include "ppsim/render/svg_writer.h"
#include "ppsim/render/text_painter.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

using ::testing::HasSubstr;

DisplayList LayOut(const LayoutInput& input) {
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(input, *m);
  EXPECT_TRUE(list.ok()) << list.error().message;
  if (!list.ok()) return {};
  const Error e = CheckLegibility(*list, *m);
  EXPECT_EQ(e.code, ErrorCode::kOk) << e.message;
  return std::move(*list);
}

// The text of `role` in run `run` visible at tick t.
std::string TextAt(const DisplayList& list, Role role, int run, Tick t) {
  for (const Item& item : list.items) {
    if (item.kind == ItemKind::kText && item.role == role && item.run == run && item.VisibleAt(t)) return item.text;
  }
  return "";
}

class GpipeVs1f1b : public ::testing::Test {
 protected:
  GpipeVs1f1b() : f_({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6) { list_ = LayOut(f_.input); }
  Fixture f_;
  DisplayList list_;
};

TEST_F(GpipeVs1f1b, AFinishLineCrossesEveryChartAtTheCommonFinish) {
  std::map<int, int> lines;  // run -> finish lines at tick 18
  for (const Item& item : list_.items) {
    if (item.role != Role::kFinish || item.kind != ItemKind::kLine) continue;
    EXPECT_EQ(item.tick0, 18);
    EXPECT_EQ(item.from, 18);  // drawn once the runs are done
    ++lines[item.run];
  }
  EXPECT_EQ(lines, (std::map<int, int>{{0, 1}, {1, 1}}));  // one shared finish: one line per chart
  EXPECT_EQ(TextAt(list_, Role::kFinish, 0, 18), "finish 18");
  EXPECT_EQ(TextAt(list_, Role::kFinish, 0, 17), "");
}

TEST_F(GpipeVs1f1b, EveryDeviceRowEndsWithItsIdleCountWhichIsItsBubbleCells) {
  for (int run : {0, 1}) {
    std::map<int, int> bubbles, counted;
    for (const Item& item : list_.items) {
      if (item.run != run) continue;
      if (item.role == Role::kBubble) ++bubbles[item.device];
      if (item.role == Role::kIdleCount) {
        EXPECT_EQ(item.text, "idle " + std::to_string(item.value));
        EXPECT_EQ(item.from, 18);
        counted[item.device] = static_cast<int>(item.value);
      }
    }
    EXPECT_EQ(counted, bubbles) << "run " << run;
    EXPECT_EQ(counted, (std::map<int, int>{{0, 6}, {1, 6}, {2, 6}, {3, 6}}));  // 2(P-1) each
  }
}

TEST_F(GpipeVs1f1b, TheCounterShowsWorkDoneAndTheLastCompletedCycle) {
  EXPECT_EQ(TextAt(list_, Role::kStatus, 0, 0), "not started · 0/48 ops · idle so far 0 of 24 · held 0");
  // After cycles 0..6, GPipe has done 6+6+5+4 ops and idled 1+1+2+3 device-cycles;
  // 1F1B has done 4 on each device and idled 3 on each (done + idle = 4 x 7 either way).
  // GPipe idles less early and 1F1B more, and both end at 24: said beside.
  EXPECT_THAT(TextAt(list_, Role::kStatus, 0, 7), ::testing::StartsWith("7 of 18 cycles · 21/48 ops · idle so far 7 of 24 · held"));
  EXPECT_THAT(TextAt(list_, Role::kStatus, 1, 7), ::testing::StartsWith("7 of 18 cycles · 16/48 ops · idle so far 12 of 24 · held"));
  for (int run : {0, 1}) {
    EXPECT_THAT(TextAt(list_, Role::kStatus, run, 18), ::testing::StartsWith("makespan 18 · idle 24 of 72 slots (33%) · peak"));
  }
}

TEST_F(GpipeVs1f1b, ClosingLinesHoldFiveSecondsAndVideosOpenOnTheResult) {
  const Pacing p = PaceFor(list_.last_tick, 30);
  EXPECT_GE(p.HoldSeconds(), 5.0);
  EXPECT_EQ(p.poster_frames, 30);
  EXPECT_EQ(p.TotalFrames(list_.last_tick), p.poster_frames + 19 * p.frames_per_tick + p.hold_frames);
}

TEST_F(GpipeVs1f1b, LabelsContrastWithTheirCellsAndTextWithThePage) {
  const DisplayList interleaved = [] {
    Fixture f({{"interleaved", "interleaved", 2}, {"ZB-V", "zbv"}, {"DualPipe", "dualpipe"}}, 4, 8);
    return LayOut(f.input);
  }();
  for (const DisplayList* list : std::vector<const DisplayList*>{&list_, &interleaved}) {
    int labels = 0;
    for (const Item& text : list->items) {
      if (text.kind != ItemKind::kText) continue;
      // The fill under the text's centre: the last rect painted there before it.
      Color under = palette::kBackground;
      const double cx = text.box.x + text.box.w / 2, cy = text.box.y + text.box.h / 2;
      for (const Item& r : list->items) {
        if (&r == &text) break;
        if (r.kind == ItemKind::kRect && r.role != Role::kBackground && r.role != Role::kGrid &&
            r.role != Role::kGaugeBack && r.box.x <= cx && cx <= r.box.right() && r.box.y <= cy &&
            cy <= r.box.bottom() && r.VisibleAt(text.from)) {
          under = r.color;
        }
      }
      EXPECT_GE(Contrast(text.color, under), 4.5) << '"' << text.text << "\" on " << Hex(under);
      labels += text.role == Role::kOpLabel;
    }
    EXPECT_GT(labels, 0);
  }
  // Greyscale: forward and backward differ in lightness too.
  EXPECT_GE(Contrast(palette::kForward, palette::kBackward), 1.5);
}

TEST(ChunksAndDirection, AreInTheLabelNotOnlyInTheShade) {
  Fixture f({{"interleaved", "interleaved", 2}, {"DualPipe", "dualpipe"}}, 4, 8);
  const DisplayList list = LayOut(f.input);
  int chunk1 = 0;
  for (const Item& item : list.items) {
    if (item.role != Role::kOpLabel) continue;
    const bool later = item.run == 0 ? item.stage >= 4 : item.stage >= 4;  // loop: s/P; DualPipe: the way back
    EXPECT_THAT(item.text, HasSubstr(later ? "\u00B7c1" : "\u00B7c0")) << item.text << " stage " << item.stage;
    chunk1 += later;
  }
  EXPECT_GT(chunk1, 0);
  // Where "·c1" does not fit (one-cycle cells at 1280 px), the cell is marked by a dark base bar.
  Fixture small({{"interleaved", "interleaved", 2}, {"DualPipe", "dualpipe"}}, 4, 8, 1280, 720);
  const DisplayList at1280 = LayOut(small.input);
  std::map<std::tuple<int, int, Tick>, int> labelled_or_marked;  // (run, device, start) of c1 cells
  int c1_cells = 0;
  for (const Item& item : at1280.items) {
    if (item.role == Role::kOp && item.chunk == 1) ++c1_cells;
    if ((item.role == Role::kChunkMark && item.chunk == 1) ||
        (item.role == Role::kOpLabel && item.text.find("\u00B7c1") != std::string::npos)) {
      ++labelled_or_marked[{item.run, item.device, item.tick0}];
    }
  }
  EXPECT_GT(c1_cells, 0);
  int covered = 0;
  for (const auto& [key, n] : labelled_or_marked) covered += n;
  EXPECT_EQ(covered, c1_cells);
  std::string legend;
  for (const Item& item : list.items) {
    if (item.role == Role::kLegendLabel) legend += item.text + "\n";
  }
  // DualPipe's c1 is its second pipeline, fed from the last device; a V's c1 the way back.
  EXPECT_THAT(legend, HasSubstr("F4\u00B7c1 or a dark base = reverse direction: microbatches 4\u20137 enter at d3 and "
                                "run to d0"));
  EXPECT_THAT(legend, HasSubstr("F above B in one cell = an overlapped F+B pair: a forward and a backward computed "
                                "together"));
  EXPECT_THAT(legend, ::testing::Not(HasSubstr("on the way back")));
  Fixture v({{"ZB-V", "zbv"}}, 4, 8);
  std::string v_legend;
  for (const Item& item : LayOut(v.input).items) {
    if (item.role == Role::kLegendLabel) v_legend += item.text + "\n";
  }
  EXPECT_THAT(v_legend, HasSubstr("a device's second stage, on the way back (reverse direction)"));
  EXPECT_THAT(v_legend, ::testing::Not(HasSubstr("overlapped")));
}

// At a 760 px blog column a 1920 px picture is shown at 0.4x: every text is
// laid out so that it is still 9 px there, and in-cell labels that cannot be
// are dropped, not shrunk.
TEST(DisplayWidth, EveryTextIsAtLeastNinePixelsWhereViewed) {
  for (auto [P, M] : {std::pair{4, 6}, std::pair{8, 32}}) {
    Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, P, M);
    f.input.display_width = 760;
    const DisplayList list = LayOut(f.input);
    EXPECT_EQ(list.display_width, 760);
    int texts = 0;
    for (const Item& item : list.items) {
      if (item.kind != ItemKind::kText) continue;
      EXPECT_GE(item.font_px * 760 / 1920, 9 - 1e-9) << '"' << item.text << "\" P=" << P;
      ++texts;
    }
    EXPECT_GT(texts, 20);
  }
  // Unscaled, the same P=8 M=32 scene has smaller labels in its cells.
  Fixture f({{"GPipe", "gpipe"}}, 8, 32);
  const DisplayList full = LayOut(f.input);
  double smallest = 1e9;
  for (const Item& item : full.items) {
    if (item.kind == ItemKind::kText) smallest = std::min(smallest, item.font_px);
  }
  EXPECT_LT(smallest * 760 / 1920, 9);
}

// #14: P=64, M=1024 is drawn, cycles aggregated into strips, and says so.
TEST(LargeRuns, AggregateIntoStripsAndSaySo) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 64, 1024);
  const DisplayList list = LayOut(f.input);
  EXPECT_EQ(list.last_tick, 2174);
  EXPECT_GT(list.ticks_per_strip, 1);
  std::string note;
  std::int64_t idle_cycles = 0;
  for (const Item& item : list.items) {
    if (item.role == Role::kNote) note = item.text;
    if (item.role == Role::kBubble && item.run == 0) idle_cycles += (item.tick1 - item.tick0) * list.devices_per_row;
  }
  EXPECT_THAT(note, HasSubstr("one column = " + std::to_string(list.ticks_per_strip) + " cycles"));
  EXPECT_LT(list.items.size(), 20000u);  // bounded by pixels, not by ops
  EXPECT_GT(idle_cycles, 0);
  EXPECT_LE(idle_cycles, 8064);  // wholly idle strips are a part of GPipe's 2P(P-1) idle cycles
}

TEST(ManyRuns, AreRefusedSayingHowManyFit) {
  std::vector<RunSpec> runs(8, {"GPipe", "gpipe"});
  for (size_t i = 0; i < runs.size(); ++i) runs[i].name += std::to_string(i);
  Fixture f(runs, 16, 16, 960, 540);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.error().code, ErrorCode::kLegibility);
  EXPECT_THAT(list.error().message, ::testing::MatchesRegex(".*8 charts of 16 devices do not fit in 960x540 "
                                                            "pixels \\(at most [1-7] fit\\).*"));
}

TEST(SvgText, IsAnchoredWhereItIsAligned) {
  Fixture f({{"GPipe", "gpipe"}}, 4, 6);
  const DisplayList list = LayOut(f.input);
  const std::string svg = WriteSvg(list, list.last_tick);
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\""));  // cell labels, tick numbers
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"end\""));     // device labels, the status line
  EXPECT_THAT(svg, HasSubstr("fill=\"url(#hatch)\""));    // bubbles
}

TEST(TextChart, ShowsChunksAndMultiTickOpsAndTakesAWidth) {
  Fixture f({{"interleaved", "interleaved", 2}}, 2, 4);
  const DisplayList list = LayOut(f.input);
  const std::string text = PaintText(list, list.last_tick, 200);
  EXPECT_THAT(text, HasSubstr("F0c1"));
  EXPECT_THAT(text, HasSubstr("F0c0"));
  Fixture g({{"GPipe", "gpipe"}}, 4, 64);
  const DisplayList wide = LayOut(g.input);
  std::string longest;
  const std::string narrow = PaintText(wide, wide.last_tick, 60);
  for (size_t a = 0, b; a < narrow.size(); a = b + 1) {
    b = narrow.find('\n', a);
    if (b == std::string::npos) b = narrow.size();
    const std::string line = narrow.substr(a, b - a);
    if (line.rfind("d0", 0) == 0) longest = line;
  }
  EXPECT_LE(longest.size(), 60u) << longest;
}

}  // namespace
}  // namespace ppsim::render::testing

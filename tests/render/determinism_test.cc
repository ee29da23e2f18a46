// The same scene renders to the same bytes, laid out and painted afresh.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "render/frame_painter.h"
#include "ppsim/render/html_writer.h"
#include "ppsim/render/svg_writer.h"
#include "ppsim/render/text_painter.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

struct Outputs {
  std::string svg, animated_svg, png, html, text;
};

Outputs RenderAll() {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  EXPECT_TRUE(list.ok());
  const Pacing pacing = PaceFor(list->last_tick, 30);
  Outputs o;
  o.svg = WriteSvg(*list, list->last_tick);
  o.animated_svg = WriteAnimatedSvg(*list, pacing);
  o.png = *RenderPng(*list, list->last_tick);
  o.html = WriteHtml(*list, pacing);
  o.text = PaintText(*list, list->last_tick, 120);
  return o;
}

TEST(Determinism, RenderingTwiceGivesTheSameBytes) {
  const Outputs a = RenderAll();
  const Outputs b = RenderAll();
  EXPECT_EQ(a.svg, b.svg);
  EXPECT_EQ(a.animated_svg, b.animated_svg);
  EXPECT_EQ(a.png, b.png);
  EXPECT_EQ(a.html, b.html);
  EXPECT_EQ(a.text, b.text);
  EXPECT_GT(a.png.size(), 1000u);
  EXPECT_THAT(a.svg, ::testing::HasSubstr(">F0</text>"));
}

TEST(Pacing, ReadableForShortRunsAndBoundedForLongOnes) {
  const Pacing short_run = PaceFor(18, 30);
  EXPECT_EQ(short_run.frames_per_tick, 15);  // half a second a tick
  EXPECT_EQ(short_run.hold_frames, 150);     // closing lines held 5 s
  const Pacing long_run = PaceFor(574, 30);
  EXPECT_EQ(long_run.frames_per_tick, 1);  // never below one frame a tick
}

TEST(TextPainter, DrawsTheGridWithBubblesAndTheGauge) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok());
  const std::string text = PaintText(*list, list->last_tick, 120);
  // GPipe's device 0: six forwards, six idle cycles, six backwards.
  EXPECT_THAT(text, ::testing::HasSubstr("d0    F0 F1 F2 F3 F4 F5 .  .  .  .  .  .  B0 B1 B2 B3 B4 B5  idle 6\n"));
  EXPECT_THAT(text, ::testing::HasSubstr("closing line two"));
  // Idle device-cycles are dots: 24 per run.
  int dots = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("d", 0) == 0) dots += static_cast<int>(std::count(line.begin(), line.end(), '.'));
  }
  EXPECT_EQ(dots, 48);
  // On a terminal, cells take the palette's colours: F0's background is the forward colour.
  const std::string ansi = PaintText(*list, list->last_tick, 120, true);
  EXPECT_THAT(ansi, ::testing::HasSubstr("d0    \x1b[48;2;38;86;150m\x1b[97mF0 F1"));
  // Narrow terminal: one letter per cycle.
  const std::string narrow = PaintText(*list, list->last_tick, 40);
  EXPECT_THAT(narrow, ::testing::HasSubstr("d0    FFFFFF......BBBBBB idle 6"));
}

}  // namespace
}  // namespace ppsim::render::testing

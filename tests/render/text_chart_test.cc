// The terminal chart keeps what the picture shows where colour and width
// run out: a later chunk and an overlapped pair are told by their letters,
// and every cycle's held activations by their number.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "ppsim/rational.h"
#include "draw/cell_measurer.h"
#include "ppsim/render/render.h"
#include "ppsim/render/text_output.h"
#include "ppsim/render/text_painter.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

std::string Row(const std::string& text, const std::string& caption, const std::string& device) {
  const size_t at = text.find(caption);
  const size_t row = text.find("\n" + device + " ", at);
  return text.substr(row + 1, text.find('\n', row + 1) - row - 1);
}

TEST(TextChart, OneLetterACycleStillShowsChunksAndOverlappedPairs) {
  Fixture f({{"ZB-V", "zbv"}, {"DualPipeV", "dualpipev"}}, 4, 8);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const std::string narrow = PaintText(*list, list->last_tick, 80);
  // ZB-V's device 0: seven forwards of chunk 0, then chunk 1's.
  EXPECT_THAT(Row(narrow, "ZB-V caption", "d0"), ::testing::StartsWith("d0    FFFFFFFf"));
  // DualPipeV's device 3 runs overlapped pairs: "+" and dashes through the pair's cycles.
  EXPECT_THAT(Row(narrow, "DualPipeV caption", "d3"), ::testing::HasSubstr("+-"));
  EXPECT_THAT(Row(narrow, "ZB-V caption", "d3"), ::testing::Not(::testing::HasSubstr("+")));
  EXPECT_THAT(narrow, ::testing::HasSubstr("f b w: a later chunk (c1, ...) · + an overlapped F+B pair"));
  // Wide enough for labels: the pair names both ops.
  const std::string wide = PaintText(*list, list->last_tick, 400);
  EXPECT_TRUE(std::regex_search(Row(wide, "DualPipeV caption", "d3"), std::regex("F[0-9]c[01]\\+B[0-9]c[01]-")))
      << Row(wide, "DualPipeV caption", "d3");
}

// Text is laid out in character cells (no font library) and its held row
// is Measure's series in stage-sets: with two chunks, half the chunk sets.
TEST(TextChart, HeldRowIsMeasuresSeriesInStageSets) {
  Fixture f({{"interleaved", "interleaved", 2}}, 4, 8);
  Result<std::string> text = RenderText(f.input, {.columns = 300});
  ASSERT_TRUE(text.ok()) << text.error().message;
  const size_t at = text->find("\nheld ");
  ASSERT_NE(at, std::string::npos) << *text;
  std::istringstream row(text->substr(at + 6, text->find('\n', at + 1) - at - 6));
  std::vector<std::string> shown;
  for (std::string cell; row >> cell;) shown.push_back(cell);
  const Metrics& m = f.metrics(0);
  ASSERT_EQ(shown.size(), static_cast<size_t>(m.makespan)) << *text;
  for (Tick x = 0; x < m.makespan; ++x) {
    EXPECT_EQ(shown[x], Rational::Of(m.activations.cluster.At(x), 2)->ToDisplay()) << "cycle " << x;
  }
  EXPECT_THAT(*text, ::testing::HasSubstr("\nd0    F0c0 F1c0 F2c0 F3c0 F0c1 "));
}

// `ppsim render --format text` and `ppsim simulate --format text` print one
// chart: RenderToBytes' text is RenderText's, whatever frame size is asked.
TEST(TextChart, RenderAndSimulateShareTheLayoutAndPainter) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6, 640, 360);
  RenderOptions options;
  options.format = OutputFormat::kText;
  options.text_columns = 90;
  Result<std::string> rendered = RenderToBytes(f.input, options);
  Result<std::string> text = RenderText(f.input, {.columns = 90});
  ASSERT_TRUE(rendered.ok() && text.ok());
  EXPECT_EQ(*rendered, *text);
}

TEST(CellMeasurer, CountsCodePointsNotBytes) {
  CellMeasurer cells;
  const TextSize size = cells.Measure("F3\u00B7c1", 10, true);  // "·" is two bytes, one cell
  EXPECT_DOUBLE_EQ(size.w, 5 * CellMeasurer::kCellEm * 10);
  EXPECT_DOUBLE_EQ(size.h, CellMeasurer::kLineEm * 10);
}

}  // namespace
}  // namespace ppsim::render::testing

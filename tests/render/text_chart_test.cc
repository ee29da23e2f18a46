// The terminal chart keeps what the picture shows where colour and width
// run out: a later chunk and an overlapped pair are told by their letters.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <string>

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
  // ZB-V's device 0: seven forwards of chunk 0, then chunk 1's f, b, w.
  EXPECT_THAT(Row(narrow, "ZB-V caption", "d0"), ::testing::StartsWith("d0   FFFFFFFfbw"));
  // DualPipeV's device 3 runs overlapped pairs: "+" and dashes through the pair's cycles.
  EXPECT_THAT(Row(narrow, "DualPipeV caption", "d3"), ::testing::HasSubstr("+-"));
  EXPECT_THAT(Row(narrow, "ZB-V caption", "d3"), ::testing::Not(::testing::HasSubstr("+")));
  EXPECT_THAT(narrow, ::testing::HasSubstr("f b w: a later chunk (c1, ...) · + an overlapped F+B pair"));
  // Wide enough for labels: the pair names both ops.
  const std::string wide = PaintText(*list, list->last_tick, 400);
  EXPECT_TRUE(std::regex_search(Row(wide, "DualPipeV caption", "d3"), std::regex("F[0-9]c[01]\\+B[0-9]c[01]-")))
      << Row(wide, "DualPipeV caption", "d3");
}

}  // namespace
}  // namespace ppsim::render::testing

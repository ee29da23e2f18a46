// A picture shown in a 760 px blog column: the gauge's scale (0 and its
// maximum) stands on its edge at any height, and the default video, laid out
// for that column, has no text under 9 px there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>

#include "cli/run_tool.h"
#include "ppsim/render/render.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

// How many right-aligned texts (the gauge's and the device labels' edge) read `text`.
int EdgeTexts(const std::string& svg, const std::string& text) {
  const std::regex edge("<text[^>]*text-anchor=\"end\"[^>]*>" + text + "</text>");
  return static_cast<int>(std::distance(std::sregex_iterator(svg.begin(), svg.end(), edge), std::sregex_iterator()));
}

// The three runs of examples/zb_vs_1f1b.toml at docs/rendering.md's size for a
// 760 px column: each gauge is about two lines tall, and still shows 0 and
// the shared maximum, 4.5 stage-sets (DualPipeV's fullest device).
TEST(BlogColumn, EveryGaugeKeepsItsScaleAt760Pixels) {
  const std::string svg = (std::filesystem::temp_directory_path() /
                           ("ppsim_blog_" + std::to_string(::getpid()) + ".svg"))
                              .string();
  for (const char* size : {"1520x1000", "760x600"}) {
    const auto run = ppsim::testing::RunPpsim("render " + std::string(PPSIM_SOURCE_DIR) +
                                              "/examples/zb_vs_1f1b.toml --size " + size +
                                              " --display-width 760 -o " + svg);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string text = ppsim::testing::Slurp(svg);
    EXPECT_EQ(EdgeTexts(text, "0"), 3) << size;
    EXPECT_EQ(EdgeTexts(text, "4\\.5"), 3) << size;
  }
  std::filesystem::remove(svg);
}

// Laid out for a gauge of every height a three-run chart can get, the scale
// is on the edge: apart when there are two lines, else as one "0–max".
TEST(BlogColumn, TheScaleStaysAtAnyHeight) {
  auto m = NewMeasurer();
  for (int height = 300; height <= 1200; height += 50) {
    Fixture f({{"1F1B", "1f1b"}, {"ZB-V", "zbv"}, {"GPipe", "gpipe"}}, 4, 8, 760, height);
    f.input.gauge = GaugeMode::kFullest;
    Result<DisplayList> list = Layout(f.input, *m);
    if (!list.ok()) continue;  // too low for three charts: refused, saying so
    for (int run = 0; run < 3; ++run) {
      int zero = 0, max = 0, range = 0;
      for (const Item& item : list->items) {
        if (item.role != Role::kGaugeLabel || item.run != run) continue;
        zero += item.text == "0";
        max += item.text == "8";  // GPipe's fullest device holds all 8
        range += item.text == "0\u20138";
      }
      EXPECT_TRUE((zero == 1 && max == 1) || range == 1) << "760x" << height << " run " << run;
    }
  }
}

// The default video (no --display-width, no [render] display_width) is laid
// out for a 760 px column: at 1920x1080 no text is under 9 px there, 22.7 px
// in the frame.
TEST(BlogColumn, TheDefaultVideoIsLegibleInAColumn) {
  Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6);
  for (OutputFormat format : {OutputFormat::kMp4, OutputFormat::kWebm, OutputFormat::kGif}) {
    RenderOptions options;
    options.format = format;
    Result<DisplayList> list = LayOut(f.input, options);
    ASSERT_TRUE(list.ok()) << list.error().message;
    EXPECT_EQ(list->display_width, 760);
    int texts = 0;
    for (const Item& item : list->items) {
      if (item.kind != ItemKind::kText) continue;
      EXPECT_GE(item.font_px * 760 / 1920, 9 - 1e-9) << item.text;
      ++texts;
    }
    EXPECT_GT(texts, 20);
  }
  RenderOptions png;  // a still image is viewed at its own size unless told
  png.format = OutputFormat::kPng;
  EXPECT_EQ(EffectiveDisplayWidth(f.input, png), 0);
}

}  // namespace
}  // namespace ppsim::render::testing

// docs/rendering.md's settings table is RenderSettingTable() (as docs/keys.md
// is KeyTable()), and every front end checks a setting through it.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/render/output_format.h"
#include "ppsim/render/render_settings.h"
#include "../generated_doc.h"

namespace ppsim {
namespace {

constexpr const char* kBegin = "<!-- render settings: generated from RenderSettingTable() by tests/render/render_settings_doc_test.cc -->\n";
constexpr const char* kEnd = "<!-- end of render settings -->\n";

// PPSIM_UPDATE_DOCS=1 rewrites the table in place instead of failing
// (generated_doc.h).
TEST(RenderSettingsDoc, RenderingPageHoldsTheTable) {
  testing::ExpectGeneratedSection(std::string(PPSIM_SOURCE_DIR) + "/docs/rendering.md", kBegin, kEnd,
                                  render::RenderSettingsMarkdown());
}

TEST(RenderSettings, EachValueIsCheckedByItsRow) {
  render::RenderSettings s;
  EXPECT_TRUE(render::SetRenderSetting("size", KeyValue::FromText("1280x720"), s).ok());
  EXPECT_EQ(s.width, 1280);
  EXPECT_EQ(s.height, 720);
  EXPECT_TRUE(render::SetRenderSetting("gauge", KeyValue::FromText("device"), s).ok());
  EXPECT_EQ(s.gauge, render::GaugeMode::kDevice);
  Error e = render::SetRenderSetting("fps", KeyValue::Int(1000), s);
  EXPECT_EQ(e.field + e.message, "fps 1000 is outside 1..240");
  e = render::SetRenderSetting("size", KeyValue::FromText("1280x"), s);
  EXPECT_EQ(e.field + e.message, "size \"1280x\" must be WIDTHxHEIGHT, each 16..16384 (e.g. 1920x1080)");
  e = render::SetRenderSetting("gauge", KeyValue::FromText("dev"), s);  // a prefix of a word is not the word
  EXPECT_EQ(e.field + e.message, "gauge \"dev\" is not one of fullest, cluster, device");
  e = render::SetRenderSetting("width", KeyValue::Int(5), s);
  EXPECT_EQ(e.field + e.message, "width 5 is outside 20..100000 (text columns)");
  e = render::SetRenderSetting("fps", KeyValue::FromText("abc"), s);
  EXPECT_EQ(e.field + e.message, "fps must be a whole number");
  EXPECT_EQ(render::SetRenderSetting("colour", KeyValue::FromText("red"), s).code, ErrorCode::kUnknownName);
  EXPECT_EQ(s.fps, std::nullopt);  // nothing refused was stored
}

TEST(OutputFormats, HelpListsComeFromTheTable) {
  EXPECT_EQ(render::PictureExtensions(), ".mp4 .webm .gif .svg .png .html");
  EXPECT_EQ(render::FormatNames(), "mp4, webm, gif, svg, png, html or text");
  EXPECT_EQ(render::OneFrameFormats(), ".svg, .png, .html or text");
}

}  // namespace
}  // namespace ppsim

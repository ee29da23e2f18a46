// Present: a scene's runs become the layout's input, every word filled from
// the runs and the frame from the scene's [render] table.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/scene/present.h"

namespace ppsim {
namespace {

const std::string kExample = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";

TEST(Present, TheExamplesWordsAreFilledFromItsRuns) {
  Result<scene::Scene> scene = scene::LoadScene(kExample);
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  Result<render::LayoutInput> input = scene::Present(*scene, *runs);
  ASSERT_TRUE(input.ok()) << input.error().message;
  EXPECT_EQ(input->title, "GPipe vs 1F1B");
  EXPECT_EQ(input->subtitle, "4 stages · 6 microbatches · one cell = one cycle");
  ASSERT_EQ(input->runs.size(), 2u);
  EXPECT_EQ(input->runs[0].caption, "GPipe — all forwards, then all backwards");
  EXPECT_EQ(input->runs[1].run, &(*runs)[1]);  // the run itself, not a copy
  EXPECT_EQ(input->runs[1].run->name, "1F1B");
  EXPECT_EQ(input->runs[1].metrics().activations.peak, 9);
  EXPECT_EQ(input->closing, (std::vector<std::string>{
                                "same finish: 18 cycles · same bubble: 24 idle stage-slots",
                                "activations held at the peak: GPipe 23 · 1F1B 9"}));
  // Its [render] table sets only the gauge (the cluster is its point): the
  // renderer's defaults otherwise.
  EXPECT_EQ(input->width, 1920);
  EXPECT_EQ(input->height, 1080);
  EXPECT_EQ(input->display_width, 0);
  EXPECT_EQ(input->gauge, render::GaugeMode::kCluster);
}

TEST(Present, TheRenderTableSetsTheFrame) {
  Result<scene::Scene> scene = scene::LoadSceneText(
      "P = 2\nM = 2\n[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n"
      "[render]\nsize = \"1280x720\"\ndisplay_width = 640\ngauge = \"device\"\n",
      "s.toml");
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  Result<render::LayoutInput> input = scene::Present(*scene, *runs);
  ASSERT_TRUE(input.ok()) << input.error().message;
  EXPECT_EQ(input->width, 1280);
  EXPECT_EQ(input->height, 720);
  EXPECT_EQ(input->display_width, 640);
  EXPECT_EQ(input->gauge, render::GaugeMode::kDevice);
  EXPECT_EQ(input->runs[0].caption, "");  // none given: the layout shows the name
}

TEST(Present, ATemplateThatCannotBeFilledNamesWhere) {
  Result<scene::Scene> scene = scene::LoadSceneText(
      "P = 2\nM = 2\n[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n"
      "[closing]\nlines = [\"ok\", \"{makespan(A) / comm}\"]\n",
      "s.toml");
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  Result<render::LayoutInput> input = scene::Present(*scene, *runs);
  ASSERT_FALSE(input.ok());
  EXPECT_EQ(input.error().Text().rfind("s.toml: closing line 2: ", 0), 0u) << input.error().Text();
}

}  // namespace
}  // namespace ppsim

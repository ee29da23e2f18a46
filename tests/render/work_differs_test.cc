// Runs that do not do the same work (a scene gave one its own costs) say so
// in the picture from the first frame and in the closing lines: a chart of
// unequal work never passes for a comparison of schedules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/render/layout.h"
#include "ppsim/scene/present.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

DisplayList LaidOut(const std::string& scene_text) {
  Result<scene::Scene> scene = scene::LoadSceneText(scene_text, "s.toml");
  EXPECT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  EXPECT_TRUE(runs.ok()) << runs.error().message;
  Result<LayoutInput> input = scene::Present(*scene, *runs);
  EXPECT_TRUE(input.ok()) << input.error().message;
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(*input, *m);
  EXPECT_TRUE(list.ok()) << list.error().message;
  return std::move(*list);
}

const char kRuns[] =
    "P = 4\nM = 8\ncosts = { F = 1, B = 1, W = 1 }\n"
    "[[run]]\nname = \"1F1B\"\nschedule = \"1f1b\"\n%s"
    "[[run]]\nname = \"ZB-H1\"\nschedule = \"zb-h1\"\n";

std::string Scene(const std::string& one_f_one_b_costs) {
  std::string s = kRuns;
  return s.replace(s.find("%s"), 2, one_f_one_b_costs);
}

TEST(WorkDiffers, ThePictureAndTheClosingLinesSaySo) {
  const DisplayList list = LaidOut(Scene("costs = { F = 1, BW = 1 }\n"));
  const std::string line = "work differs: 1F1B busy 64 · ZB-H1 busy 96 ticks — the runs are not given the same model";
  bool shown_at_start = false;
  for (const Item& item : list.items)
    shown_at_start = shown_at_start || (item.kind == ItemKind::kText && item.text == line && item.VisibleAt(0));
  EXPECT_TRUE(shown_at_start);
  ASSERT_FALSE(list.closing.empty());
  EXPECT_EQ(list.closing.back(), line);
}

TEST(WorkDiffers, OneModelSaysNothing) {
  const DisplayList list = LaidOut(Scene(""));
  for (const Item& item : list.items) EXPECT_EQ(item.text.find("work differs"), std::string::npos) << item.text;
  for (const std::string& line : list.closing) EXPECT_EQ(line.find("work differs"), std::string::npos) << line;
}

}  // namespace
}  // namespace ppsim::render::testing

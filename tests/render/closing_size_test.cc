// The closing lines are the message: in a narrow frame they are broken at a
// word rather than shrunk to the size of the chart's labels, and stay at
// least 1.5 times as large.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/render/layout.h"
#include "ppsim/scene/present.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

TEST(ClosingSize, AtLeastOneAndAHalfTimesTheLabels) {
  Result<scene::Scene> scene = scene::LoadScene(std::string(PPSIM_SOURCE_DIR) + "/examples/zb_vs_1f1b.toml");
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  for (auto [w, h, view] : {std::tuple{1520, 1000, 760}, std::tuple{1920, 1080, 0}, std::tuple{1280, 720, 0}}) {
    Result<LayoutInput> input = scene::Present(*scene, *runs);
    ASSERT_TRUE(input.ok()) << input.error().message;
    input->width = w;
    input->height = h;
    input->display_width = view;
    auto m = NewMeasurer();
    Result<DisplayList> list = Layout(*input, *m);
    ASSERT_TRUE(list.ok()) << list.error().message;
    double label = 0, smallest_closing = 1e9;
    std::string closing;
    for (const Item& it : list->items) {
      if (it.role == Role::kAxisLabel) label = std::max(label, it.font_px);
      if (it.role == Role::kClosing) {
        smallest_closing = std::min(smallest_closing, it.font_px);
        closing += it.text + "\n";
      }
    }
    ASSERT_GT(label, 0);
    EXPECT_GE(smallest_closing, 1.5 * label - 1e-9) << w << "x" << h << ":\n" << closing;
    // Every word of the scene's closing lines is drawn.
    for (const std::string& line : list->closing)
      for (const std::string& word : {std::string("DualPipeV"), std::string("cluster:")})
        if (line.find(word) != std::string::npos) {
          EXPECT_NE(closing.find(word), std::string::npos) << closing;
        }
  }
}

}  // namespace
}  // namespace ppsim::render::testing

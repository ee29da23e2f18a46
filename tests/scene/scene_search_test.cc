// A scene run with schedule = "search": found within its budget, and
// claims compare it with the fixed schedules.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/scene/scene.h"

namespace ppsim {
namespace {

TEST(SceneSearch, ExampleClaimsHold) {
  Result<scene::Scene> scene = scene::LoadScene(std::string(PPSIM_SOURCE_DIR) + "/examples/search.toml");
  ASSERT_TRUE(scene.ok()) << scene.error().Text();
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().Text();
  Result<std::vector<ClaimResult>> claims = scene::CheckSceneClaims(*scene, *runs);
  ASSERT_TRUE(claims.ok()) << claims.error().Text();
  for (const ClaimResult& c : *claims) EXPECT_TRUE(c.holds) << c.Explain();
  // Within 4 sets per device, measured on the placed timeline.
  for (std::int64_t peak : (*runs)[0].metrics.activations.peak_per_device) EXPECT_LE(peak, 4);
  EXPECT_LT((*runs)[0].timeline.makespan, 41);  // ZB-H1's
}

TEST(SceneSearch, SearchNeedsABudget) {
  Result<scene::Scene> s = scene::LoadSceneText("P = 4\nM = 8\n[[run]]\nname = \"X\"\nschedule = \"search\"\n", "s.toml");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidValue);
  EXPECT_NE(s.error().Text().find("s.toml:3"), std::string::npos) << s.error().Text();
  EXPECT_NE(s.error().Text().find("needs max_activations"), std::string::npos) << s.error().Text();
}

}  // namespace
}  // namespace ppsim

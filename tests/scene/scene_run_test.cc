// The scene library without the binary: a scene simulated and its claims
// checked give the figures `ppsim simulate` and `ppsim check` print.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/check_report.h"
#include "ppsim/scene/scene.h"

namespace ppsim {
namespace {

const std::string kExample = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";

TEST(SimulateScene, GpipeAndOneFOneBFinishTogetherAndHoldDifferently) {
  Result<scene::Scene> scene = scene::LoadScene(kExample);
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 2u);
  const Metrics& gpipe = (*runs)[0].metrics;
  const Metrics& one_f_one_b = (*runs)[1].metrics;
  EXPECT_EQ((*runs)[0].name, "GPipe");
  EXPECT_EQ((*runs)[1].name, "1F1B");
  // What `ppsim simulate -s gpipe|1f1b -P 4 -M 6` prints.
  EXPECT_EQ(gpipe.makespan, 18);
  EXPECT_EQ(one_f_one_b.makespan, 18);
  EXPECT_EQ(gpipe.idle, 24);
  EXPECT_EQ(one_f_one_b.idle, 24);
  EXPECT_EQ(gpipe.activations.peak, 23);
  EXPECT_EQ(one_f_one_b.activations.peak, 9);
  EXPECT_EQ(gpipe.activations.peak_per_device, (std::vector<std::int64_t>{6, 6, 6, 5}));
  EXPECT_EQ(one_f_one_b.activations.peak_per_device, (std::vector<std::int64_t>{4, 3, 2, 0}));
}

TEST(SimulateScene, SetValuesReachEveryRun) {
  Result<scene::Scene> scene = scene::LoadScene(kExample, {"P=8", "M=16"});
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  for (const ppsim::Run& r : *runs) EXPECT_EQ(r.metrics.makespan, 2 * (16 + 8 - 1)) << r.name;
}

TEST(CheckSceneClaims, AFalseClaimIsAResultWithItsValuesNotAnError) {
  // With one microbatch, 1F1B holds as much as GPipe: "peak(GPipe) > peak(1F1B)" fails.
  Result<scene::Scene> scene = scene::LoadScene(kExample, {"M=1"});
  ASSERT_TRUE(scene.ok()) << scene.error().message;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  Result<std::vector<ClaimResult>> claims = scene::CheckSceneClaims(*scene, *runs);
  ASSERT_TRUE(claims.ok()) << claims.error().message;
  ASSERT_EQ(claims->size(), 3u);
  EXPECT_TRUE((*claims)[0].holds);
  EXPECT_TRUE((*claims)[1].holds);
  EXPECT_FALSE((*claims)[2].holds);
  EXPECT_FALSE(AllHold(*claims));
  EXPECT_NE((*claims)[2].Explain().find("peak(GPipe) = 3"), std::string::npos) << (*claims)[2].Explain();
}

TEST(CheckScene, ReportsWhatTheCliPrints) {
  Result<std::string> text = io::ReadFile(kExample);
  ASSERT_TRUE(text.ok());
  Result<scene::CheckReport> report = scene::CheckScene(*text, "examples/gpipe_vs_1f1b.toml", {}, {});
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_TRUE(report->ok);
  EXPECT_EQ(report->false_claims, 0u);
  EXPECT_NE(report->text.find("examples/gpipe_vs_1f1b.toml:28: peak(GPipe) > peak(1F1B) holds: peak(GPipe) = 23, "
                              "peak(1F1B) = 9"),
            std::string::npos)
      << report->text;
  EXPECT_NE(report->text.find("all 3 claims hold"), std::string::npos) << report->text;
}

}  // namespace
}  // namespace ppsim

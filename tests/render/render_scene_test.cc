// RenderScene as a library: several outputs drawn in one call (one layout per
// frame size) are byte for byte what one call per output writes, and a false
// claim writes nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/render_scene.h"

namespace ppsim {
namespace {

namespace fs = std::filesystem;

const std::string kExample = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";

class RenderSceneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppsim_render_scene_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

std::string Bytes(const std::string& path) {
  Result<std::string> b = io::ReadFile(path);
  EXPECT_TRUE(b.ok()) << path;
  return b.ok() ? *b : "";
}

TEST_F(RenderSceneTest, OutputsDrawnTogetherEqualOutputsDrawnAlone) {
  const std::vector<std::string> names = {"a.svg", "a.png", "a.html", "a.txt", "b.svg"};
  scene::SceneRenderOptions together;
  for (const std::string& n : names) together.outputs.push_back(Path("together_" + n));
  Result<scene::SceneRenderReport> report = scene::RenderScene(kExample, {}, together);
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->outputs.size(), names.size());
  EXPECT_EQ(report->outputs[0].width, 1920);
  EXPECT_EQ(report->outputs[0].ticks, 18);  // the longest makespan
  EXPECT_EQ(report->closing[1], "activations held at the peak: GPipe 23 · 1F1B 9");
  for (const std::string& n : names) {
    scene::SceneRenderOptions alone;
    alone.outputs = {Path("alone_" + n)};
    Result<scene::SceneRenderReport> one = scene::RenderScene(kExample, {}, alone);
    ASSERT_TRUE(one.ok()) << one.error().message;
    EXPECT_EQ(Bytes(Path("together_" + n)), Bytes(Path("alone_" + n))) << n;
  }
}

TEST_F(RenderSceneTest, AFalseClaimWritesNothingAndNamesTheClaim) {
  scene::SceneRenderOptions o;
  o.outputs = {Path("a.svg"), Path("a.png")};
  std::vector<std::string> false_claims;
  Result<scene::SceneRenderReport> report = scene::RenderScene(kExample, {"M=1"}, o, &false_claims);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.error().code, ErrorCode::kClaimFalse);
  ASSERT_EQ(false_claims.size(), 1u);
  EXPECT_EQ(false_claims[0].rfind(kExample + ":28: ", 0), 0u) << false_claims[0];
  EXPECT_TRUE(fs::is_empty(dir_));
}

}  // namespace
}  // namespace ppsim

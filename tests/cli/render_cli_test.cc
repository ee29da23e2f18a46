// `ppsim render` end to end: claims gate the picture, outputs are atomic and
// deterministic, and the shipped scenes render legibly at other sizes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/run_tool.h"
#include "ppsim/metric_table.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::Slurp;
using ::testing::HasSubstr;

const std::string kExample = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";
const std::string kInterleaved = std::string(PPSIM_SOURCE_DIR) + "/examples/interleaved.toml";

constexpr const char* kFalseScene = R"toml(title = "a false claim"
P = 4
M = 6
[[run]]
name = "GPipe"
schedule = "gpipe"
[[run]]
name = "1F1B"
schedule = "1f1b"
[[claim]]
check = "makespan(GPipe) == makespan(1F1B)"
[[claim]]
check = "peak(GPipe) < peak(1F1B)"
)toml";

class RenderCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ppsim_render_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  size_t Files() const {
    return std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator());
  }
  std::filesystem::path dir_;
};

TEST_F(RenderCli, FalseClaimRendersNothingAndLeavesTheOutputUntouched) {
  const std::string scene = Path("false.toml");
  std::ofstream(scene) << kFalseScene;
  for (const char* ext : {"svg", "png", "html", "mp4"}) {
    const std::string out = Path(std::string("out.") + ext);
    std::ofstream(out) << "previous";
    auto run = RunPpsim("render " + scene + " -o " + out);
    EXPECT_EQ(run.exit_code, 11) << run.err;  // kClaimFalse
    EXPECT_THAT(run.err, HasSubstr("peak(GPipe) < peak(1F1B) is false"));
    EXPECT_THAT(run.err, HasSubstr("nothing rendered"));
    EXPECT_EQ(Slurp(out), "previous");
  }
  const std::string fresh = Path("fresh.svg");
  EXPECT_EQ(RunPpsim("render " + scene + " -o " + fresh).exit_code, 11);
  EXPECT_FALSE(std::filesystem::exists(fresh));
  EXPECT_EQ(Files(), 5u);  // the scene and the four untouched outputs: no temporaries
}

TEST_F(RenderCli, ExampleRendersAndPrintsTheClosingNumbers) {
  auto run = RunPpsim("render " + kExample + " -o " + Path("a.svg") + " -o " + Path("a.png") + " -o " + Path("a.html"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out,
            "same finish: 18 cycles · same bubble: 24 idle stage-slots\n"
            "activations held at the peak: GPipe 23 · 1F1B 9\n");
  EXPECT_THAT(Slurp(Path("a.svg")), HasSubstr("same finish: 18 cycles"));
  EXPECT_EQ(Slurp(Path("a.png")).substr(1, 3), "PNG");
  EXPECT_THAT(Slurp(Path("a.html")), HasSubstr("<script>"));
}

TEST_F(RenderCli, RerenderIsByteIdentical) {
  for (const char* ext : {"svg", "png", "html"}) {
    const std::string a = Path(std::string("a.") + ext), b = Path(std::string("b.") + ext);
    ASSERT_EQ(RunPpsim("render " + kExample + " -o " + a).exit_code, 0);
    ASSERT_EQ(RunPpsim("render " + kExample + " -o " + b).exit_code, 0);
    EXPECT_EQ(Slurp(a), Slurp(b)) << ext;
  }
}

TEST_F(RenderCli, OtherSizesAndTheInterleavedSceneRenderLegibly) {
  auto bigger = RunPpsim("render " + kExample + " --set P=8 --set M=16 -o " + Path("p8.png"));
  EXPECT_EQ(bigger.exit_code, 0) << bigger.err;
  auto inter = RunPpsim("render " + kInterleaved + " -o " + Path("inter.png"));
  EXPECT_EQ(inter.exit_code, 0) << inter.err;
  auto small = RunPpsim("render " + kExample + " --size 960x540 -o " + Path("small.png"));
  EXPECT_EQ(small.exit_code, 0) << small.err;
}

TEST_F(RenderCli, IllegibleSizeFailsNamingTheLabels) {
  auto run = RunPpsim("render " + kExample + " --set P=32 --set M=64 --size 320x180 -o " + Path("tiny.png"));
  EXPECT_EQ(run.exit_code, 14) << run.err;  // kLegibility
  EXPECT_THAT(run.err, HasSubstr("use a taller size"));  // the render library names the field, not the flag
  EXPECT_FALSE(std::filesystem::exists(Path("tiny.png")));
}

TEST_F(RenderCli, TextToStdoutAtATick) {
  auto run = RunPpsim("render " + kExample + " -o - --format text --at-tick 3");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("d0    F0 F1 F2\n"));
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr("same finish")));  // closing lines come at the end
}

// The scene's [render] table: its size is used, and its mistakes are named
// in the scene's words at their position, never as a flag.
TEST_F(RenderCli, RenderTableSizeIsUsedAndItsErrorsNameTheScene) {
  const std::string scene = Path("sized.toml");
  // The example ends with its [render] table (gauge = "cluster"): add a key to it.
  ASSERT_THAT(Slurp(kExample), HasSubstr("\n[render]\ngauge = \"cluster\"\n"));
  std::ofstream(scene) << Slurp(kExample) << "size = \"1280x720\"\n";
  auto run = RunPpsim("render " + scene + " -o " + Path("a.png") + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\"width\":1280"));
  EXPECT_THAT(run.out, HasSubstr("\"height\":720"));
  const std::string bad = Path("bad.toml");
  std::ofstream(bad) << Slurp(kExample) << "fps = 1000\n";
  auto fail = RunPpsim("render " + bad + " -o " + Path("b.mp4"));
  EXPECT_EQ(fail.exit_code, 3) << fail.err;  // kInvalidValue, as --fps 1000
  EXPECT_THAT(fail.err, HasSubstr("bad.toml:"));
  EXPECT_THAT(fail.err, HasSubstr("render.fps 1000 is outside 1..240"));
  EXPECT_THAT(fail.err, ::testing::Not(HasSubstr("--fps")));
  EXPECT_FALSE(std::filesystem::exists(Path("b.mp4")));
}

// render --json's runs carry every metric of the table (metric_table.h),
// keyed and written as simulate --json writes them.
TEST_F(RenderCli, JsonRunsCarryEveryMetric) {
  auto run = RunPpsim("render " + kExample + " -o " + Path("m.svg") + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json runs = nlohmann::json::parse(run.out)["runs"];
  ASSERT_EQ(runs.size(), 2u);
  for (const MetricInfo& m : MetricTable()) {
    if (!MetricApplies(m, Metrics{})) continue;  // comm metrics: only for runs with --comms (CommsCli)
    for (const char* key : {m.json_key, m.json_per_device_key}) {
      if (key == nullptr) continue;
      EXPECT_TRUE(runs[1].contains(key)) << key;
    }
  }
  EXPECT_EQ(runs[1]["name"], "1F1B");
  EXPECT_EQ(runs[1]["makespan"], 18);
  EXPECT_EQ(runs[1]["bubble_ratio"], 0.5);
  EXPECT_EQ(runs[1]["peak_activations_per_device"], nlohmann::json({4, 3, 2, 0}));
  EXPECT_EQ(runs[0]["peak_stage_sets"], 23.0);
}

TEST_F(RenderCli, UnknownExtensionIsAUsageError) {
  auto run = RunPpsim("render " + kExample + " -o " + Path("out.bmp"));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_THAT(run.err, HasSubstr("cannot tell the format"));
}

// The gauge names its unit; --gauge device draws a lane per device whose
// printed peak is the device's measured one (1F1B in the example: 4 3 2,
// device 3 holds nothing under "held"). A bad value names the field.
TEST_F(RenderCli, GaugeNamesItsUnitAndDeviceGaugesPrintEachDevicesPeak) {
  const std::string cluster = Path("cluster.svg"), device = Path("device.svg");
  auto run = RunPpsim("render " + kExample + " -o " + cluster);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string svg = Slurp(cluster);
  EXPECT_THAT(svg, HasSubstr(">peak 23 stage-sets<"));  // GPipe's peak, at its peak line
  EXPECT_THAT(svg, HasSubstr(">peak 9 stage-sets<"));   // 1F1B's
  run = RunPpsim("render " + kExample + " -o " + device + " --gauge device");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string dev = Slurp(device);
  EXPECT_THAT(dev, HasSubstr(">held per device, in stage-sets (a full lane = 6)<"));  // GPipe holds M = 6 on a device
  for (const char* peak : {">peak 6<", ">peak 4<", ">peak 3<", ">peak 2<"}) EXPECT_THAT(dev, HasSubstr(peak));
  auto bad = RunPpsim("render " + kExample + " -o " + Path("x.svg") + " --gauge stage");
  EXPECT_EQ(bad.exit_code, 3) << bad.err;
  EXPECT_THAT(bad.err, HasSubstr("gauge \"stage\" is not one of fullest, cluster, device"));
}

}  // namespace
}  // namespace ppsim

// `ppsim compare --model FILE --layout STRING` through the shipped binary:
// 1F1B with and without full recompute on the DeepSeek-V3-like model
// (examples/models/deepseek_v3_like.toml, the even split over 8 ranks, as
// examples/recompute_deepseek.toml), the time paid and the memory saved,
// exactly, in the table and the JSON; and `search --recompute full` finding
// a shorter schedule within one stage-set a device than without.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

const std::string kDeepSeek = std::string("-s 1f1b -P 8 -M 32 --model ") + PPSIM_SOURCE_DIR +
                              "/examples/models/deepseek_v3_like.toml --layout 'Et*7|(t*8|)*5,t*7|t*7mL' "
                              "--hold resident --recompute-inputs 1/17 --with recompute=full";

TEST(CompareModelCli, RecomputeOnDeepSeekShowsTimePaidAndBytesSaved) {
  auto run = RunPpsim("compare " + kDeepSeek + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["runs"].size(), 2u);
  const nlohmann::json &off = j["runs"][0], &on = j["runs"][1];
  EXPECT_EQ(off["makespan"], 16556316);
  EXPECT_EQ(on["makespan"], 22075088);
  EXPECT_EQ(on["recompute_time"], 28398880);
  EXPECT_EQ(off["peak_bytes_per_device"],
            nlohmann::json::parse("[116292714496, 101725503488, 93739548672, 85753593856, 77767639040, 69781684224, "
                                  "54071263232, 83252740096]"));
  EXPECT_EQ(on["peak_bytes_per_device"],
            nlohmann::json::parse("[70256033792, 56628346880, 56158584832, 55688822784, 55219060736, 54749298688, "
                                  "47494594560, 83252740096]"));

  auto text = RunPpsim("compare " + kDeepSeek);  // 80 columns, not a terminal
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("peak_bytes                 116292714496               83252740096\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("against 1f1b: 1f1b recompute=full pays 5518772 ticks (makespan 22075088 against\n"
                          "  16556316) and saves 33039974400 bytes on its fullest device (83252740096\n"
                          "  against 116292714496); per device 46036680704 45097156608 37580963840\n"
                          "  30064771072 22548578304 15032385536 6576668672 0\n"),
            std::string::npos)
      << text.out;
}

// The same two runs as a scene: its claims on the ticks paid and the bytes
// saved hold, and its closing lines print them.
TEST(CompareModelCli, TheSceneClaimsTheTimePaidAndTheBytesSaved) {
  auto run = RunPpsim("check " PPSIM_SOURCE_DIR "/examples/recompute_deepseek.toml");
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("all 4 claims hold"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("peak_bytes(1F1B) = 116292714496, peak_bytes(Recompute) = 83252740096"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("makespan(Recompute) = 22075088, makespan(1F1B) = 16556316"), std::string::npos) << run.out;
}

TEST(CompareModelCli, WithoutBytesNothingOfThemIsPrinted) {
  auto run = RunPpsim("compare -s 1f1b -P 4 -M 8 --cost F=1,BW=2 --with recompute=full");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.find("bytes"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("against"), std::string::npos) << run.out;
}

TEST(CompareModelCli, ALayoutNeedsAModelAndALoopSchedule) {
  auto bare = RunPpsim("compare -s 1f1b -P 8 -M 32 --layout 'Et*7|(t*8|)*5,t*7|t*7mL'");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(bare.err, "ppsim: --layout needs a model: the layers it splits (docs/costs.md)\n");
  EXPECT_EQ(bare.out, "");
  auto vshape = RunPpsim(std::string("compare -s 1f1b,zbv -P 8 -M 32 --model ") + PPSIM_SOURCE_DIR +
                         "/examples/models/deepseek_v3_like.toml --layout 'Et*7|(t*8|)*5,t*7|t*7mL'");
  EXPECT_EQ(vshape.exit_code, 5);
  EXPECT_EQ(vshape.err,
            "ppsim: --layout: Megatron runs stage i on rank i mod P, and zbv places its stages otherwise "
            "(docs/layouts.md)\n");
  EXPECT_EQ(vshape.out, "");
}

// One stage-set a device, P = 2, M = 2, two ticks a hop: without recompute
// a device holds a set from F to W, and the best order ends at 18; with
// it the set is only its inputs between F and R, and the best ends at 15
// (both proven optimal; tests/core/search_recompute_test.cc checks them
// against every order).
TEST(CompareModelCli, SearchWithRecomputeIsShorterWithinOneSet) {
  auto with = RunPpsim("search -P 2 -M 2 --comm 2 --max-activations 1 --recompute full --json");
  ASSERT_EQ(with.exit_code, 0) << with.err;
  const nlohmann::json j = nlohmann::json::parse(with.out);
  EXPECT_EQ(j["makespan"], 15);
  EXPECT_EQ(j["optimal"], true);
  EXPECT_EQ(j["recompute_time"], 4);
  EXPECT_EQ(j["budget"]["peak_per_device"], nlohmann::json::parse("[1, 1]"));
  std::string rank0;
  for (const auto& op : j["ops"])
    if (op["device"] == 0) rank0 += std::string(op["kind"]);
  EXPECT_EQ(rank0.size(), 8u) << rank0;
  for (size_t i = 0; i < rank0.size(); ++i) {  // each R right before its B
    if (rank0[i] == 'R') {
      EXPECT_EQ(rank0.substr(i, 2), "RB") << rank0;
    }
  }
  auto without = RunPpsim("search -P 2 -M 2 --comm 2 --max-activations 1 --json");
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(nlohmann::json::parse(without.out)["makespan"], 18);
}

}  // namespace
}  // namespace ppsim

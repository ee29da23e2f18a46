// `ppsim check` end to end, and `simulate --critical-path`.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

const std::string kScene = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";
const std::string kInterleaved = std::string(PPSIM_SOURCE_DIR) + "/examples/interleaved.toml";

TEST(CheckCli, TheExampleScenesHold) {
  auto r = RunPpsim("check " + kScene);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("peak(GPipe) > peak(1F1B) holds: peak(GPipe) = 23, peak(1F1B) = 9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("all 3 claims hold"), std::string::npos);
  r = RunPpsim("check " + kInterleaved);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(CheckCli, ABrokenClaimFailsWithTheCounterexample) {
  auto r = RunPpsim("check " + kScene + " --set comm=1");
  EXPECT_EQ(r.exit_code, 11);
  EXPECT_NE(r.out.find("makespan(GPipe) == makespan(1F1B) is false: makespan(GPipe) = 24, makespan(1F1B) = 30; "
                       "first tick where one run is ahead: 5"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("2 claim(s) false"), std::string::npos) << r.err;
}

TEST(CheckCli, JsonShape) {
  auto r = RunPpsim("check " + kScene + " --set M=1 --json");
  EXPECT_EQ(r.exit_code, 11);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["ok"], false);
  ASSERT_EQ(j["claims"].size(), 3u);
  const auto& peak = j["claims"][2];
  EXPECT_EQ(peak["check"], "peak(GPipe) > peak(1F1B)");
  EXPECT_EQ(peak["holds"], false);
  EXPECT_EQ(peak["values"]["peak(GPipe)"], 3);
  EXPECT_EQ(peak["values"]["peak(1F1B)"], 3);
  EXPECT_EQ(peak["line"], 28);
  EXPECT_FALSE(peak.contains("first_ahead"));  // M = 1: the two orders are the same

  r = RunPpsim("check " + kScene + " --set comm=1 --json");
  const auto k = nlohmann::json::parse(r.out);
  EXPECT_EQ(k["claims"][0]["first_ahead"]["tick"], 5);
  EXPECT_EQ(k["claims"][0]["first_ahead"]["ahead"], "GPipe");
  r = RunPpsim("check " + kInterleaved + " --json");
  EXPECT_EQ(nlohmann::json::parse(r.out)["claims"][1]["values"]["bubble_ratio(Interleaved)"], "3/16");
}

TEST(CheckCli, SweepListsCounterexamplesSmallestFirst) {
  auto r = RunPpsim("check " + kScene + " --sweep P=1..8 --sweep M=1..16 --json");
  EXPECT_EQ(r.exit_code, 11) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tried"], 128);
  EXPECT_EQ(j["ok"], false);
  ASSERT_EQ(j["counterexamples"].size(), 8u);
  EXPECT_EQ(j["counterexamples"][0]["params"], (nlohmann::json{{"P", 1}, {"M", 1}}));
  EXPECT_EQ(j["counterexamples"][0]["claim"], "peak(GPipe) > peak(1F1B)");
  EXPECT_EQ(j["counterexamples"][7]["params"], (nlohmann::json{{"P", 8}, {"M", 1}}));
  EXPECT_EQ(j["counterexamples"][7]["values"]["peak(GPipe)"], 7);

  r = RunPpsim("check " + kScene + " --sweep P=2..4 --sweep M=2..8");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("tried 21 points; 0 counterexample(s)"), std::string::npos) << r.out;
}

TEST(CheckCli, ErrorsHaveTheirOwnExitCodesAndNoOutput) {
  const std::string bad = ::testing::TempDir() + "/ppsim_bad_claim.toml";
  std::ofstream(bad) << "P = 4\n[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n[[claim]]\ncheck = \"idle(A) >< 1\"\n";
  auto r = RunPpsim("check " + bad);
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(bad + ":6:19: claim: "), std::string::npos) << r.err;

  r = RunPpsim("check /nonexistent.toml");
  EXPECT_EQ(r.exit_code, 12);
  r = RunPpsim("check " + kScene + " --set X=1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  r = RunPpsim("check " + kScene + " --sweep P=9..1");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(SimulateCli, CriticalPathRunsFromZeroToTheMakespanWithoutGaps) {
  auto r = RunPpsim("simulate --schedule 1f1b -P 4 -M 6 --comm 1 --json --critical-path");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& ops = j["ops"];
  const auto& path = j["critical_path"];
  ASSERT_GT(path.size(), 1u);
  EXPECT_EQ(ops[path.front().get<int>()]["start"], 0);
  EXPECT_EQ(ops[path.back().get<int>()]["end"], j["makespan"]);
  for (size_t k = 1; k < path.size(); ++k) {
    const auto& prev = ops[path[k - 1].get<int>()];
    const auto& cur = ops[path[k].get<int>()];
    // Same device: back to back; across devices: exactly the comm latency.
    const int gap = cur["start"].get<int>() - prev["end"].get<int>();
    EXPECT_EQ(gap, prev["device"] == cur["device"] ? 0 : 1) << k;
  }
  r = RunPpsim("simulate --schedule gpipe -P 4 -M 6 --critical-path");
  EXPECT_NE(r.out.find("critical path (18 ops, tick 0 to 18): F0@s0(d0 0-1) -> F1@s0(d0 1-2)"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ppsim

// `ppsim check --sweep --shard I/N` and `ppsim merge`: a sweep split into
// shards and joined again is the unsplit sweep, byte for byte.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

const std::string kInterleaved = std::string(PPSIM_SOURCE_DIR) + "/examples/interleaved.toml";
// Skipped points (M not a multiple of the rounds), several false claims at
// one point, and an axis listed out of order.
const std::string kSweep = " --sweep comm=2,0 --sweep P=1..4 --sweep M=1..8 --json";

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(SweepShardCli, ShardsMergedEqualTheUnsplitSweepByteForByte) {
  const auto whole = RunPpsim("check " + kInterleaved + kSweep);
  ASSERT_EQ(whole.exit_code, 11) << whole.err;
  const auto j = nlohmann::json::parse(whole.out);
  ASSERT_GT(j["skipped"].get<int>(), 0);  // the test covers first_skipped
  ASSERT_GT(j["counterexamples"].size(), 20u);

  std::string files;
  std::int64_t tried = 0;
  for (int i = 3; i >= 1; --i) {  // any order
    const auto shard = RunPpsim("check " + kInterleaved + kSweep + " --shard " + std::to_string(i) + "/3");
    ASSERT_EQ(shard.exit_code, 11) << shard.err;
    const auto s = nlohmann::json::parse(shard.out);
    EXPECT_EQ(s["shard"]["index"], i);
    tried += s["tried"].get<std::int64_t>();
    files += " " + Write("shard" + std::to_string(i) + ".json", shard.out);
  }
  EXPECT_EQ(tried, j["tried"].get<std::int64_t>());
  const auto merged = RunPpsim("merge" + files);
  EXPECT_EQ(merged.exit_code, 11) << merged.err;
  EXPECT_EQ(merged.out, whole.out);

  // One shard of one is the whole sweep too; a sweep without counterexamples exits 0.
  const auto ok = RunPpsim("check " + kInterleaved + " --sweep P=2,4 --sweep M=8 --json --shard 1/1");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const auto ok_merged = RunPpsim("merge " + Write("ok.json", ok.out));
  EXPECT_EQ(ok_merged.exit_code, 0) << ok_merged.err;
  EXPECT_EQ(ok_merged.out, RunPpsim("check " + kInterleaved + " --sweep P=2,4 --sweep M=8 --json").out);
}

TEST(SweepShardCli, ShardIGetsThePointsKModNEqualToIMinusOne) {
  // At M = 1 GPipe and 1F1B hold the same peak: every point is a counterexample.
  // A 3 x 2 grid, axis 0 slowest: k = 0..5 is (P=1,M=1) (P=1,M=1) (P=2,M=1) ...
  const std::string scene = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";
  const auto r = RunPpsim("check " + scene + " --sweep P=1..3 --sweep M=1,1 --shard 2/4 --json");
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tried"], 2);  // k = 1 and 5
  ASSERT_EQ(j["counterexamples"].size(), 2u);
  EXPECT_EQ(j["counterexamples"][0]["point"], 1);
  EXPECT_EQ(j["counterexamples"][0]["params"]["P"], 1);
  EXPECT_EQ(j["counterexamples"][1]["point"], 5);
  EXPECT_EQ(j["counterexamples"][1]["params"]["P"], 3);
  EXPECT_EQ(j["shard"]["points"], 6);
  const auto text = RunPpsim("check " + scene + " --sweep P=1..3 --sweep M=1,1 --shard 2/4");
  EXPECT_NE(text.out.find("tried 2 points (shard 2/4 of 6); 2 counterexample(s)"), std::string::npos) << text.out;
}

TEST(SweepShardCli, BadShardSpecsAreUsageErrorsNamingShard) {
  for (const std::string spec : {"0/3", "4/3", "1/0", "x", "1/", "/3", "-1/3", "1/3/3"}) {
    const auto r = RunPpsim("check " + kInterleaved + " --sweep P=1..2 --shard " + spec);
    EXPECT_EQ(r.exit_code, 2) << spec;
    EXPECT_EQ(r.out, "") << spec;
    EXPECT_EQ(r.err.rfind("ppsim: --shard " + spec + ": expected I/N with 1 ≤ I ≤ N", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const auto r = RunPpsim("check " + kInterleaved + " --shard 1/2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ppsim: --shard 1/2: splits a sweep; give sweep axes too"), std::string::npos) << r.err;
}

TEST(SweepShardCli, MergeRefusesInconsistentShards) {
  auto shard = [](const std::string& sweep, const std::string& spec) {
    return Write("s" + std::to_string(std::hash<std::string>{}(sweep + spec)) + ".json",
                 RunPpsim("check " + kInterleaved + sweep + " --json --shard " + spec).out);
  };
  const std::string a1 = shard(" --sweep P=1..4", "1/2"), a2 = shard(" --sweep P=1..4", "2/2");
  const std::string b2 = shard(" --sweep P=1..5", "2/2"), a1of3 = shard(" --sweep P=1..4", "1/3");
  const std::string c2 = shard(" --sweep P=1..4 --set comm=1", "2/2");
  ASSERT_EQ(RunPpsim("merge " + a1 + " " + a2).exit_code, 11);

  auto refused = [](const std::string& args, const std::string& message) {
    const auto r = RunPpsim("merge " + args);
    EXPECT_EQ(r.exit_code, 3) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  };
  refused(a1 + " " + b2, b2 + ": shard.sweep [\"P=1..5\"] differs from " + a1 + "'s [\"P=1..4\"]: shards of different sweeps");
  refused(a1 + " " + c2, "shard.set [\"comm=1\"] differs");
  refused(a1 + " " + a1of3, "shard.count 3 differs");
  refused(a1, "merge: the sweep has 2 shards, 1 given");
  refused(a1 + " " + a1, a1 + ": shard 1/2 is also " + a1);
  refused(Write("whole.json", RunPpsim("check " + kInterleaved + " --sweep P=1..4 --json").out), "not a shard: no \"shard\"");
  // Edited so that its counts no longer add up.
  auto j = nlohmann::json::parse(RunPpsim("check " + kInterleaved + " --sweep P=1..4 --json --shard 2/2").out);
  j["tried"] = 3;
  refused(a1 + " " + Write("edited.json", j.dump()), "tried + skipped is 3 but shard 2/2 has 2 points");
  j["tried"] = 5;  // more than the whole sweep: refused before the shard is counted
  refused(a1 + " " + Write("edited.json", j.dump()), "edited.json: tried is 5 but the sweep has 4 points");

  const auto r = RunPpsim("merge " + Write("bad.json", "{\"ok\": tru"));
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_NE(r.err.find("bad.json: not JSON"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ppsim

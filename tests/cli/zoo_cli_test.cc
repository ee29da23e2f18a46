// `ppsim list`, the zoo through `simulate`, cost files, per-hop comm and
// memory in bytes, end to end.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ZooCli, ListNamesEveryScheduleWithItsPreconditions) {
  auto r = RunPpsim("list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"gpipe", "1f1b", "interleaved", "combined-1f1b", "looped-bfs", "zb-h1", "zb-h2", "zb1p", "zbv", "v-half",
                           "v-min", "dualpipe", "dualpipev", "seq1f1b"})
    EXPECT_NE(("\n" + r.out).find(std::string("\n") + name + " "), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("requires: even P; even M ≥ 2P"), std::string::npos) << r.out;
  r = RunPpsim("list --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["schedules"].size(), 14u);
  EXPECT_EQ(j["schedules"][8]["name"], "zbv");
  EXPECT_EQ(j["schedules"][8]["placement"], "v-shape");
  EXPECT_EQ(j["schedules"][8]["chunks"], 2);
  EXPECT_EQ(j["schedules"][8]["split_backward"], true);
}

TEST(ZooCli, VShapeGreedyRefusesPastItsLimit) {
  auto r = RunPpsim("simulate --schedule v-min -P 8 -M 40000 --json");
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_EQ(r.err,
            "ppsim: v-min: P·M = 320000 exceeds the limit 262144 for the Zero Bubble team's greedy order (refused "
            "before allocating; docs/schedules.md)\n");
  EXPECT_TRUE(r.out.empty());
}

TEST(ZooCli, DualPipeNeedsEvenP) {
  auto r = RunPpsim("simulate --schedule dualpipe -P 3 -M 12");
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("dualpipe needs an even number of devices"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(ZooCli, OverlappedPairsInJson) {
  auto r = RunPpsim("simulate --schedule dualpipev -P 4 -M 10 --cost F=2,B=2,W=1,FB=3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  int pairs = 0;
  const auto& ops = j["ops"];
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    if (!ops[i].contains("overlap") || !ops[i + 1].contains("overlap") || ops[i]["overlap"] != ops[i + 1]["overlap"])
      continue;
    EXPECT_EQ(ops[i]["start"], ops[i + 1]["start"]);
    EXPECT_EQ(ops[i]["end"].get<long>() - ops[i]["start"].get<long>(), 3);  // FB
    ++pairs;
  }
  EXPECT_EQ(pairs, 41);  // as many as PyTorch's ScheduleDualPipeV order has
}

TEST(ZooCli, CostFileCommPerHopAndMemoryLimit) {
  const std::string file = TempFile("zoo_costs.toml",
                                    "F = 2\n"
                                    "B = [4, 2, 2, 6]\n"
                                    "W = 1\n"
                                    "comm = [1, 8, 1]\n"
                                    "[memory]\n"
                                    "activation_bytes = 100\n"
                                    "param_bytes = 1000\n"
                                    "limit = 1300\n");
  auto r = RunPpsim("simulate --schedule zb-h1 -P 4 -M 8 --cost-file " + file + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["comm_hops"], nlohmann::json({1, 8, 1}));
  EXPECT_EQ(j["costs"]["B"], nlohmann::json({4, 2, 2, 6}));
  EXPECT_EQ(j["static_bytes_per_device"], nlohmann::json({1000, 1000, 1000, 1000}));
  EXPECT_EQ(j["peak_bytes_per_device"], nlohmann::json({1400, 1400, 1400, 1400}));
  EXPECT_EQ(j["memory_limit_exceeded"], true);
  EXPECT_EQ(j["memory_limit_first_exceeded"]["device"], 0);
  EXPECT_EQ(j["memory_limit_first_exceeded"]["bytes"], 1400);
  // The command line wins over the file.
  r = RunPpsim("simulate --schedule zb-h1 -P 4 -M 8 --cost-file " + file + " --comm 0 --memory-limit 1400 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("comm_hops"));
  EXPECT_EQ(j["memory_limit_exceeded"], false);
  EXPECT_TRUE(j["memory_limit_first_exceeded"].is_null());
  // A slower middle hop costs more.
  auto slow = nlohmann::json::parse(RunPpsim("simulate -s 1f1b -P 4 -M 8 --comm 1:8:1 --json").out);
  auto even = nlohmann::json::parse(RunPpsim("simulate -s 1f1b -P 4 -M 8 --comm 1 --json").out);
  EXPECT_GT(slow["makespan"].get<long>(), even["makespan"].get<long>());
}

TEST(ZooCli, CostFileErrorsHavePositions) {
  auto r = RunPpsim("simulate --cost-file " + TempFile("zoo_bad1.toml", "F = 2\nX = 3\n"));
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find("zoo_bad1.toml:2:1: unknown key 'X'"), std::string::npos) << r.err;
  r = RunPpsim("simulate --cost-file " + TempFile("zoo_bad2.toml", "F = [1, \"a\"]\n"));
  EXPECT_EQ(r.exit_code, 3);  // as --cost F=1:a
  EXPECT_NE(r.err.find("zoo_bad2.toml:1:5: costs.F: '[ 1, \'a\' ]' is not a whole number or a list of them"),
            std::string::npos)
      << r.err;
  r = RunPpsim("simulate --cost-file " + TempFile("zoo_bad3.toml", "[memory]\nfreed_by_b_percent = 120\n"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("zoo_bad3.toml:2:22: memory.freed_by_b_percent must be ≤ 100, got 120"), std::string::npos)
      << r.err;
  r = RunPpsim("simulate --cost-file " + TempFile("zoo_bad4.toml", "W = 0\n"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("W must be ≥ 1"), std::string::npos) << r.err;
  r = RunPpsim("simulate -s zbv -P 4 -M 8 --comm 1:2");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("comm per hop: 2 values given, need 7"), std::string::npos) << r.err;
}

// Every schedule's timeline passes `ppsim validate` (legal and tight).
TEST(ZooCli, EveryScheduleValidatesClean) {
  for (const char* name : {"zb-h1", "zb-h2", "zb1p", "zbv", "dualpipe", "dualpipev"}) {
    const std::string file = ::testing::TempDir() + "/zoo_" + name + ".json";
    auto r = RunPpsim(std::string("simulate -s ") + name + " -P 4 -M 8" +
                      (std::string(name) == "zb1p" ? " --chunks 2" : "") +
                      " --cost F=2,B=3,W=1,FB=4 --comm 1 --json -o " + file);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    r = RunPpsim("validate " + file);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("legal and tight"), std::string::npos) << name << ": " << r.out;
  }
}

}  // namespace
}  // namespace ppsim

// `ppsim search` end to end: simulate's JSON plus the search's fields, the
// text summary, the export, and the exit codes for bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

const char* const kQuick = " --time-limit 0.3";

TEST(SearchCli, JsonIsSimulatesPlusBoundGapOptimal) {
  auto run = RunPpsim(std::string("search -P 4 -M 8 --cost F=1,B=1,W=1 --comm 1 --max-activations 4 --json") + kQuick);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  for (const char* field : {"schedule", "P", "M", "v", "costs", "comm", "makespan", "busy", "idle", "bubble_ratio",
                            "peak_activations_per_device", "ops", "lower_bound", "gap", "optimal", "found_by",
                            "evaluated", "seconds"})
    EXPECT_TRUE(j.contains(field)) << field;
  EXPECT_EQ(j["ops"].size(), 96u);
  EXPECT_LE(j["lower_bound"].get<long long>(), j["makespan"].get<long long>());
  // Peaks are measured allocator-style: at most the budget on every device.
  for (const auto& peak : j["peak_activations_per_device"]) EXPECT_LE(peak.get<int>(), 4);
  // 1F1B (41 here) is the best fixed schedule that fits; the search is shorter.
  EXPECT_LT(j["makespan"].get<long long>(), 41);
}

TEST(SearchCli, TextIsChartAndOneSummaryLine) {
  auto run = RunPpsim(std::string("search -P 2 -M 2 --cost F=1,B=1,W=1 --max-activations 1") + kQuick);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // One microbatch at a time: 2 × (F + F + B + B + W) = 10 ticks, and no order is shorter.
  EXPECT_NE(run.out.find("d1    .  F0 B0 W0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("makespan 10  lower bound 10  gap 0.0%  optimal"), std::string::npos) << run.out;
}

TEST(SearchCli, ExportsTheScheduleFound) {
  auto run = RunPpsim(std::string("search -P 2 -M 2 --max-activations 2 --export text") + kQuick);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("F0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("W1"), std::string::npos) << run.out;
}

TEST(SearchCli, BudgetBelowEveryScheduleNamesTheMinimum) {
  auto run = RunPpsim("search -P 4 -M 8 --max-activations 0");
  EXPECT_EQ(run.exit_code, 5);
  EXPECT_NE(run.err.find("the minimum that works is 1"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty());
}

TEST(SearchCli, MemoryLimitInBytesWithACostFile) {
  const std::string file = "/tmp/ppsim_search_cli_costs_" + std::to_string(::getpid()) + ".toml";
  std::ofstream(file) << "F = 2\nB = 2\nW = 1\n[memory]\nactivation_bytes = 100\nparam_bytes = 1000\n";
  auto run = RunPpsim("search -P 4 -M 8 --cost-file " + file + " --memory-limit 1300 --json" + kQuick);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  for (const auto& bytes : j["peak_bytes_per_device"]) EXPECT_LE(bytes.get<long long>(), 1300);
  EXPECT_EQ(j["memory_limit_exceeded"], false);
  run = RunPpsim("search -P 4 -M 8 --cost-file " + file + " --memory-limit 1099");
  EXPECT_EQ(run.exit_code, 5);
  EXPECT_NE(run.err.find("the minimum that works is 1100"), std::string::npos) << run.err;
  std::remove(file.c_str());
}

// The time limit bounds the whole command (issue 21): on 8.4 M ops each fixed
// schedule is a pass over every op, so a 0.5 s limit leaves most of them
// untried, says so, and still returns a schedule that fits.
TEST(SearchCli, TimeLimitLeavesFixedSchedulesUntriedOnALargeProblem) {
  auto run = RunPpsim("search -P 64 -M 65536 --max-activations 64 --time-limit 0.5");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("not tried within the time limit"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("budget 64 stage-sets/device: makespan "), std::string::npos) << run.out;
}

TEST(SearchCli, BadTimeLimitAndPlacementAreInvalidValues) {
  for (const char* args : {"--time-limit 0", "--time-limit -1", "--time-limit soon", "--placement zigzag"}) {
    auto run = RunPpsim(std::string("search -P 4 -M 8 --max-activations 4 ") + args);
    EXPECT_EQ(run.exit_code, 3) << args;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

}  // namespace
}  // namespace ppsim

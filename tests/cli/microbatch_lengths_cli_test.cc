// Microbatch lengths through the shipped binary (issue 28): a seeded draw of
// lengths is the run with those lengths as weights, the JSON carries both,
// a sweep over seeds finds the smallest failing seed, and bad input is one
// line with exit 3.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

// Seed 7 over 1..8 draws 8 5 3 4 (docs/costs.md): the same run as weights 8:5:3:4.
TEST(MicrobatchLengthsCli, ADrawIsTheRunWithThoseWeights) {
  auto drawn =
      RunPpsim("simulate -s 1f1b -P 2 -M 4 --microbatch-lengths uniform --length-range 1:8 --length-seed 7 --json");
  auto given = RunPpsim("simulate -s 1f1b -P 2 -M 4 --microbatch-costs 8:5:3:4 --json");
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  nlohmann::json a = nlohmann::json::parse(drawn.out), b = nlohmann::json::parse(given.out);
  EXPECT_EQ(a["microbatch_lengths"], nlohmann::json({8, 5, 3, 4}));
  EXPECT_EQ(a["microbatch_costs"], nlohmann::json({8, 5, 3, 4}));
  EXPECT_EQ(a["makespan"], 56);
  a.erase("microbatch_lengths");
  EXPECT_EQ(a, b);
}

// causal at hidden 1: L·(12 + 1 + L), so lengths 1 and 2 weigh 14 and 30.
TEST(MicrobatchLengthsCli, CausalWeighsLongerMicrobatchesMoreThanLinearly) {
  auto run = RunPpsim("simulate -s 1f1b -P 2 -M 2 --microbatch-lengths 1:2 --length-cost causal --hidden 1 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["microbatch_costs"], nlohmann::json({14, 30}));
}

TEST(MicrobatchLengthsCli, TheDrawValidates) {
  auto run =
      RunPpsim("simulate -s zb-h1 -P 4 -M 8 --microbatch-lengths uniform --length-range 1:8 --length-seed 3 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  testing::TempFile t("lengths_run.json", run.out);
  auto check = RunPpsim("validate " + t.path());
  EXPECT_EQ(check.exit_code, 0) << check.err << check.out;
}

// A claim checked over seeds 1..1000 names the smallest seed where it fails:
// ZB-H1 saves a fifth of 1F1B's time at 964 draws, not at seed 42.
TEST(MicrobatchLengthsCli, ASweepOverSeedsFindsTheSmallestCounterexample) {
  const std::string scene = std::string(PPSIM_SOURCE_DIR) + "/examples/packed_lengths.toml";
  auto one = RunPpsim("check " + scene);
  EXPECT_EQ(one.exit_code, 0) << one.out;
  auto run = RunPpsim("check " + scene + " --sweep length_seed=1..1000 --json");
  ASSERT_EQ(run.exit_code, 11) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["tried"], 1000);
  ASSERT_EQ(j["counterexamples"].size(), 36u);
  const nlohmann::json& first = j["counterexamples"][0];
  EXPECT_EQ(first["params"]["length_seed"], 42);
  EXPECT_EQ(first["claim"], "makespan(ZB-H1) * 5 <= makespan(1F1B) * 4");
  EXPECT_EQ(first["values"]["makespan(ZB-H1)"], 153);
  EXPECT_EQ(first["values"]["makespan(1F1B)"], 190);
}

struct Refusal {
  const char* args;
  int code;
  const char* message;
};

TEST(MicrobatchLengthsCli, BadInputIsOneLineWithItsExitCode) {
  const Refusal cases[] = {
      {"--microbatch-lengths uniform", 3, "ppsim: --microbatch-lengths: uniform needs length_range MIN:MAX (tokens)\n"},
      {"--microbatch-lengths uniform --length-range 5:3", 3,
       "ppsim: --length-range: give MIN:MAX with 1 ≤ MIN ≤ MAX, got 5:3\n"},
      {"--microbatch-lengths 1:2:3", 3, "ppsim: --microbatch-lengths: 3 values given for M = 2 microbatches\n"},
      {"--microbatch-lengths 1:2 --microbatch-costs 1:1", 3,
       "ppsim: --microbatch-lengths: give microbatch_costs or microbatch_lengths, not both\n"},
      {"--microbatch-lengths 1:2 --length-cost causal", 3,
       "ppsim: --length-cost: causal needs hidden (a microbatch of L tokens costs L·(12·hidden + 1 + L), "
       "docs/costs.md)\n"},
      {"--microbatch-lengths 1:2000000", 6, nullptr},
  };
  for (const Refusal& c : cases) {
    auto run = RunPpsim(std::string("simulate -s 1f1b -P 2 -M 2 ") + c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    if (c.message != nullptr) {
      EXPECT_EQ(run.err, c.message) << c.args;
    }
    EXPECT_EQ(run.out, "") << c.args;
  }
}

}  // namespace
}  // namespace ppsim

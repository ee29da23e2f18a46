// Per-microbatch costs through the shipped binary (issue 28): microbatch m's
// ops cost its weight times its stage's cost, placed over the op graph; a
// list of the wrong length is one line with exit 3.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

// 1F1B, P = 2, M = 2, F = B = 1 per unit of weight, microbatch 0 twice as
// long: d0 F0 [0,2] F1 [2,3]; d1 F0 [2,4] B0 [4,6] F1 [6,7] B1 [7,8]; d0 B0
// [6,8] B1 [8,9].
TEST(MicrobatchCostsCli, EachMicrobatchCostsItsWeight) {
  auto run = RunPpsim("simulate -s 1f1b -P 2 -M 2 --cost F=1,BW=1 --microbatch-costs 2:1 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["makespan"], 9);
  EXPECT_EQ(j["busy"], 12);
  EXPECT_EQ(j["microbatch_costs"], nlohmann::json({2, 1}));
  std::string d0;
  for (const auto& op : j["ops"])
    if (op["device"] == 0)
      d0 += std::string(op["kind"]) + std::to_string(int(op["microbatch"])) + "[" + std::to_string(int(op["start"])) +
            "," + std::to_string(int(op["end"])) + "] ";
  EXPECT_EQ(d0, "F0[0,2] F1[2,3] B0[6,8] B1[8,9] ");
}

TEST(MicrobatchCostsCli, EqualWeightsGiveThePlainRun) {
  auto a = RunPpsim("simulate -s zb-h1 -P 4 -M 8 --microbatch-costs 1:1:1:1:1:1:1:1 --json");
  auto b = RunPpsim("simulate -s zb-h1 -P 4 -M 8 --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  ja.erase("microbatch_costs");
  EXPECT_EQ(ja, jb);
}

TEST(MicrobatchCostsCli, AListOfTheWrongLengthIsRefused) {
  auto run = RunPpsim("simulate -s 1f1b -M 2 --microbatch-costs 1:2:3 --json");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.err, "ppsim: --microbatch-costs: 3 values given for M = 2 microbatches\n");
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace ppsim

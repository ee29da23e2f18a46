// Any placement, as PyTorch infers it from a schedule CSV: a Hanayo wave
// over 3 chunks simulates through the shipped binary with its own
// stage -> device map, validates, and writes the same CSV back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

TEST(PlacementMapCli, WaveCsvRunsOnItsOwnMap) {
  const std::string base = "/tmp/ppsim_wave_" + std::to_string(::getpid());
  const std::string csv = "0F0,0F1,3F0,3F1,4F0,4F1,4B0,4B1,3B0,3B1,0B0,0B1\r\n"
                          "1F0,1F1,2F0,2F1,5F0,5F1,5B0,5B1,2B0,2B1,1B0,1B1\r\n";
  std::ofstream(base + ".csv") << csv;
  auto run = RunPpsim("simulate --schedule-file " + base + ".csv --comm 1 --json -o " + base + ".json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(base + ".json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["placement"], "map");
  EXPECT_EQ(j["stage_to_device"], nlohmann::json::parse("[0, 1, 1, 0, 0, 1]"));
  EXPECT_EQ(j["v"], 3);
  auto valid = RunPpsim("validate " + base + ".json");
  EXPECT_EQ(valid.exit_code, 0) << valid.err;
  EXPECT_NE(valid.out.find("legal and tight"), std::string::npos) << valid.out;
  auto back = RunPpsim("simulate --schedule-file " + base + ".csv --export pytorch-csv");
  EXPECT_EQ(back.out, csv);
  std::remove((base + ".csv").c_str());
  std::remove((base + ".json").c_str());
}

// --placement: a registry schedule runs only on its own placement, a file
// on its own map; a bad list is one line with its item.
TEST(PlacementMapCli, PlacementFlagAgreesOrIsRefused) {
  EXPECT_EQ(RunPpsim("simulate -s zbv -P 4 -M 8 --placement map:0,1,2,3,3,2,1,0").exit_code, 0);
  EXPECT_EQ(RunPpsim("simulate -s zbv -P 4 -M 8 --placement vshape").exit_code, 0);
  struct Case {
    std::string args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"-s 1f1b -P 4 -M 8 --placement map:0,1,3,2", 5,
       "ppsim: --placement: 1f1b is defined for the loop placement, which puts stage 2 on device 2, not 3 (a "
       "schedule file runs any placement: its own)\n"},
      {"-s zbv -P 4 -M 8 --placement map:0,1,2,3,3,2,1", 3,
       "ppsim: --placement map: 7 devices given for 8 stages (one per stage, P·v = 4·2)\n"},
      {"-s zbv -P 4 -M 8 --placement map:0,1,2,3,3,2,1,4", 3,
       "ppsim: --placement map (item 8): device 4, but devices are 0..3\n"},
      {"-s zbv -P 4 -M 8 --placement map:0,1,x", 3, "ppsim: --placement map (item 3): 'x' is not a device number\n"},
      {"-s 1f1b --placement zigzag", 3,
       "ppsim: --placement: 'zigzag' is not one of loop, vshape, wave, map:D0,D1,... (one device per stage)\n"},
      {"-s interleaved --chunks 3 -P 2 -M 4 --placement wave", 5,
       "ppsim: --placement: interleaved is defined for the loop placement, which puts stage 2 on device 0, not 1 (a "
       "schedule file runs any placement: its own)\n"},
  };
  for (const Case& c : cases) {
    auto run = RunPpsim("simulate " + c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

}  // namespace
}  // namespace ppsim

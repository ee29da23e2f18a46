// Any placement, as PyTorch infers it from a schedule CSV: a Hanayo wave
// over 3 chunks simulates through the shipped binary with its own
// stage -> device map, validates, and writes the same CSV back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>

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

}  // namespace
}  // namespace ppsim

// PyTorch's own order rules (_validate_schedule) on a schedule CSV, through
// the shipped binary: `validate FILE.csv` and `simulate --schedule-file`
// name the cell, the rule, and PyTorch's own message for it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::Slurp;

class PytorchRulesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/ppsim_pytorch_rules_" + std::to_string(::getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Csv(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name + ".csv";
    std::ofstream(path) << text;
    return path;
  }
  std::string dir_;
};

TEST_F(PytorchRulesCli, Schedule1F1BsOwnPipelineOrderIsRefusedAsPytorchRefusesIt) {
  // PyTorch's Schedule1F1B.pipeline_order at 00722e64 (its last rank numbers
  // forwards 1..M), recorded with PyTorch's own _validate_schedule verdict
  // (tests/data/pytorch_comms_public.json).
  const nlohmann::json doc = nlohmann::json::parse(Slurp(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_comms_public.json"));
  const nlohmann::json& entry = doc["entries"][0];
  ASSERT_EQ(entry["schedule"], "Schedule1F1B");
  std::string text;
  for (const auto& row : entry["compute"]) {
    for (size_t i = 0; i < row.size(); ++i) text += (i ? "," : "") + row[i].get<std::string>();
    text += "\r\n";
  }
  const std::string path = Csv("schedule1f1b", text);
  std::string pytorch = entry["reported"]["validate_schedule"]["message"];
  pytorch = pytorch.substr(0, pytorch.find('\n'));  // its first line; a picture of the order follows
  EXPECT_EQ(pytorch, "Rank 1, step 1: Running Full Backward for stage 1, microbatch 0 without first running Forward");
  const std::string want = path + ":2:5: 1B0 runs the full backward without its forward 1F0 before it "
                                  "(PyTorch's _validate_schedule: '" + pytorch + "')\n";
  for (const std::string& command : {"validate " + path, "simulate --schedule-file " + path}) {
    const auto run = RunPpsim(command);
    EXPECT_EQ(run.exit_code, 8) << command;
    EXPECT_EQ(run.err, "ppsim: " + want) << command;
    EXPECT_EQ(run.out, "") << command;
  }
}

TEST_F(PytorchRulesCli, EachRuleNamesItsCell) {
  const struct {
    std::string name, text, message;
  } cases[] = {
      {"w_before_i", "0F0,0W0,0I0\r\n",
       ":1:5: 0W0 runs the backward weight without its backward input 0I0 before it (PyTorch's _validate_schedule: "
       "'Rank 0, step 1: Running Backward Weight for stage 0, microbatch 0 without first running Backward Input')"},
      {"i_before_f", "0I0,0F0,0W0\r\n",
       ":1:1: 0I0 runs the backward input without its forward 0F0 before it (PyTorch's _validate_schedule: "
       "'Rank 0, step 0: Running Backward Input for stage 0, microbatch 0 without first running Forward')"},
      {"two_ranks", "0F0,0B0\r\n0F1,0B1\r\n",
       ":2:1: 0F1 runs stage 0 on rank 1, which rank 0 runs too (PyTorch's _validate_schedule: "
       "'Rank 1, step 0: Stage 0 is assigned to both rank 1 and rank 0')"},
      {"pair", "0F0,1F0,(0F1;1B1)OVERLAP_F_B\r\n",
       ":1:14: 1B1 runs the full backward without its forward 1F1 before it (PyTorch's _validate_schedule: "
       "'Rank 0, step 2: Running Full Backward for stage 1, microbatch 1 without first running Forward')"},
  };
  for (const auto& c : cases) {
    const std::string path = Csv(c.name, c.text);
    const auto run = RunPpsim("validate " + path);
    EXPECT_EQ(run.exit_code, 8) << c.name;
    EXPECT_EQ(run.err, "ppsim: " + path + c.message + "\n") << c.name;
  }
}

TEST_F(PytorchRulesCli, ALegalCsvIsPlacedAndChecked) {
  // PyTorch's own artifact: legal, and its placement is simulate's.
  const std::string path = std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_artifacts/zb1p_2rank_2stagep_comms.csv";
  const auto run = RunPpsim("validate " + path);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "ok: 80 ops, legal and tight, makespan 66\n");
  const auto json = RunPpsim("validate --json " + path);
  EXPECT_EQ(nlohmann::json::parse(json.out)["makespan"], 66);
  const auto refused = RunPpsim("validate --comm 2 " + path);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, "ppsim: --comm applies to a timeline, not to a schedule CSV\n");
}

}  // namespace
}  // namespace ppsim

// `ppsim explain` of a Megatron-LM timers log (docs/explain.md, "A Megatron-LM
// timers log"): tests/data/megatron/timers_1f1b_P4_tp2.log is a log in the
// format megatron/core/timers.py prints with --timing-log-level 2
// --timing-log-option all (P 4, TP 2, 8 world ranks, M = 32 / (4 x 1) = 8;
// stage 2 runs 1.25x slower in iteration 20). Explain reads P, M and v from
// the arguments block, fits each stage's mean costs, places Megatron's order
// and finds the straggler; what is not such a log is refused, naming the line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;
using testing::Slurp;

const std::string kLog = std::string(PPSIM_TEST_DATA_DIR) + "/megatron/timers_1f1b_P4_tp2.log";

class ExplainMegatron : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/ppsim_explain_megatron_" + std::to_string(::getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // The fixture with its line `line` (1-based) replaced by `text`, or removed
  // when `text` is null; the path written.
  std::string Variant(const std::string& name, int line, const char* text) {
    std::ifstream in(kLog);
    const std::string path = dir_ + "/" + name;
    std::ofstream out(path);
    std::string l;
    for (int n = 1; std::getline(in, l); ++n) {
      if (n != line)
        out << l << "\n";
      else if (text != nullptr)
        out << text << "\n";
    }
    return path;
  }
  std::string dir_;
};

json Explain(const std::string& args) {
  const auto run = RunPpsim("explain " + args + " --json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.exit_code == 0 ? json::parse(run.out) : json();
}

TEST_F(ExplainMegatron, ReadsTheShapeAndFitsEachStagesMeanCosts) {
  const json j = Explain(kLog);
  EXPECT_EQ(j["schedule"], "1f1b");
  EXPECT_EQ(j["P"], 4);      // pipeline_model_parallel_size
  EXPECT_EQ(j["M"], 8);      // global_batch_size 32 / (micro_batch_size 4 x data_parallel_size 1)
  EXPECT_EQ(j["v"], 1);      // virtual_pipeline_model_parallel_size None
  EXPECT_EQ(j["step"], 20);  // the last block by default
  // Stage 2 = world ranks 4 and 5 (TP 2): the slower's 100.11 ms / 8 and 200.15 ms / 8.
  EXPECT_EQ(j["costs_us"][2]["F"], 12513.75);
  EXPECT_EQ(j["costs_us"][2]["B"], 25018.75);
  EXPECT_EQ(j["costs_us"][0]["F"], 10016.25);  // 80.13 / 8
  // Measured: forward-backward 390.58 less all-grads-sync 0.05 and embedding-grads-all-reduce 1.42.
  EXPECT_EQ(j["measured"]["makespan_us"], 389110.0);
  EXPECT_EQ(j["measured"]["busy_us"][2], 300260.0);  // 100.11 + 200.15 ms
  EXPECT_EQ(j["timers_us"]["world_size"], 8);
  EXPECT_EQ(j["orders"][0][0], "0F0");
}

TEST_F(ExplainMegatron, TheReplayIsMegatronsOrderPlacedOnTheMeanCosts) {
  const json j = Explain(kLog);
  const auto sim = RunPpsim(
      "simulate -s 1f1b -P 4 -M 8 --cost-per chunk --cost "
      "F=10016250:10006250:12513750:10026250,BW=20032500:20013750:25018750:20038750 --json");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_EQ(j["replay"]["makespan_us"].get<double>() * 1000, json::parse(sim.out)["makespan"].get<double>());
  EXPECT_EQ(j["replay"]["makespan_us"], 382926.25);
  // The send/recv timers hold 148.12 ms on rank 0, 5.58 ms more than its idle in the replay.
  EXPECT_EQ(j["timers_us"]["p2p"][0], 148120.0);
  ASSERT_EQ(j["findings"].size(), 1u);  // no straggler without expected costs
  EXPECT_EQ(j["findings"][0]["kind"], "exposed_comm");
  EXPECT_EQ(j["findings"][0]["lost_us"], 5583.75);
  EXPECT_EQ(j["ideal"], j["replay"]);
}

TEST_F(ExplainMegatron, EqualStagesFindStage2sRankAStraggler) {
  const json j = Explain(kLog + " --equal-stages");
  EXPECT_EQ(j["findings"][0]["kind"], "straggler");
  EXPECT_EQ(j["findings"][0]["rank"], 2);
  // The ideal takes the factor out: about iteration 10's replay, where stage 2 was not slow.
  const json before = Explain(kLog + " --step 10");
  EXPECT_EQ(before["step"], 10);
  EXPECT_EQ(before["costs_us"][2]["F"], 10010.0);  // 80.08 / 8
  EXPECT_NEAR(j["ideal"]["makespan_us"].get<double>(), before["replay"]["makespan_us"].get<double>(), 100);
  EXPECT_LT(j["ideal"]["makespan_us"].get<double>(), j["replay"]["makespan_us"].get<double>() - 50000);
}

TEST_F(ExplainMegatron, VirtualStagesPlaceMegatronsInterleavedOrder) {
  const std::string v2 = Variant("v2.log", 49, "  virtual_pipeline_model_parallel_size ............ 2");
  const json j = Explain(v2);
  EXPECT_EQ(j["schedule"], "interleaved");
  EXPECT_EQ(j["v"], 2);
  EXPECT_EQ(j["costs_us"][6]["F"], 6256.875);  // stage 6 on rank 2: 100.11 ms / (2 x 8)
  const auto sim = RunPpsim(
      "simulate -s interleaved -P 4 -M 8 -v 2 --group 4 --cost-per chunk --cost "
      "F=5008125:5003125:6256875:5013125:5008125:5003125:6256875:5013125,"
      "BW=10016250:10006875:12509375:10019375:10016250:10006875:12509375:10019375 --json");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_EQ(j["replay"]["makespan_us"].get<double>() * 1000, json::parse(sim.out)["makespan"].get<double>());
}

TEST_F(ExplainMegatron, WhatIsNotSuchALogIsRefusedNamingTheLine) {
  const std::string plain = dir_ + "/notes.txt";
  std::ofstream(plain) << "loss went down\n";
  const struct {
    std::string args;
    int exit_code;
    std::string message;
  } cases[] = {
      {Variant("bad.log", 236, "     rank  3: 80.x3"), 7,
       "bad.log:236: '     rank  3: 80.x3' is no timer line (Megatron prints '     rank NN: MS.MS')"},
      {Variant("missing.log", 238, nullptr), 3,
       "missing.log:232: forward-compute: rank 5 missing (world ranks 0..7 "
       "expected)"},
      {Variant("no_p.log", 32, nullptr), 7,
       "no_p.log:2: the arguments block has no pipeline_model_parallel_size (P and M come from it)"},
      {plain, 7, "notes.txt: not a profiler trace nor a ppsim timeline (not JSON), nor a Megatron-LM timers log"},
      {kLog + " --step 15", 3, "--step 15: no per-rank timers after that iteration (iterations: 10, 20)"},
      {kLog + " " + kLog, 2, "is a text log (Megatron-LM's timers), which holds every rank: give it alone"},
  };
  for (const auto& c : cases) {
    const auto run = RunPpsim("explain " + c.args);
    EXPECT_EQ(run.exit_code, c.exit_code) << c.args << "\n" << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

}  // namespace
}  // namespace ppsim

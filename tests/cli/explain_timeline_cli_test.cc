// `ppsim explain` of a ppsim timeline (docs/explain.md, "A ppsim timeline as
// the measured run"): a run simulated by ppsim and read back as measured,
// ticks as ns, gives its own schedule, orders, costs and makespan, and finds
// the fault put into it; what explain cannot read is refused, naming the op.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;
using testing::Slurp;

class ExplainTimeline : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/ppsim_explain_timeline_" + std::to_string(::getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // `ppsim simulate ARGS --json` written to a file; its path.
  std::string Simulate(const std::string& name, const std::string& args) {
    const std::string path = dir_ + "/" + name + ".json";
    const auto run = RunPpsim("simulate " + args + " --json -o " + path);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return path;
  }
  std::string dir_;
};

TEST_F(ExplainTimeline, ASimulatedRunIsItsOwnIdeal) {
  const std::string path = Simulate("1f1b", "-s 1f1b -P 4 -M 8 --cost F=1000,BW=2000");
  const json sim = json::parse(Slurp(path));
  const auto run = RunPpsim("explain " + path + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["schedule"], "1f1b");
  EXPECT_EQ(j["P"], 4);
  EXPECT_EQ(j["M"], 8);
  // Each rank's order is the simulated device's, in PyTorch's action strings.
  for (int r = 0; r < 4; ++r) {
    std::vector<std::pair<long, std::string>> ops;
    for (const json& op : sim["ops"])
      if (op["device"] == r)
        ops.emplace_back(op["start"].get<long>(), std::to_string(op["stage"].get<int>()) + op["kind"].get<std::string>() +
                                                      std::to_string(op["microbatch"].get<int>()));
    std::sort(ops.begin(), ops.end());
    std::vector<std::string> order;
    for (const auto& [start, name] : ops) order.push_back(name);
    EXPECT_EQ(j["orders"][r].get<std::vector<std::string>>(), order) << "rank " << r;
  }
  EXPECT_EQ(j["costs_us"][2]["F"], 1.0);
  EXPECT_EQ(j["costs_us"][2]["B"], 2.0);
  // (M + P - 1)(F + B) = 11 x 3000 ns, in all three runs; nothing to find.
  EXPECT_EQ(sim["makespan"], 33000);
  EXPECT_EQ(j["measured"]["makespan_us"], 33.0);
  EXPECT_EQ(j["replay"]["makespan_us"], 33.0);
  EXPECT_EQ(j["ideal"]["makespan_us"], 33.0);
  EXPECT_TRUE(j["findings"].empty()) << j["findings"].dump();
}

TEST_F(ExplainTimeline, ASplitBackwardReadsAsIAndW) {
  const std::string path = Simulate("zbh1", "-s zb-h1 -P 4 -M 8 --cost F=1000,B=1000,W=1000");
  const auto run = RunPpsim("explain " + path + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["schedule"], "zb-h1");
  EXPECT_EQ(j["orders"][3][1], "3I0");
  EXPECT_EQ(j["measured"]["makespan_us"], json::parse(Slurp(path))["makespan"].get<double>() / 1000);
}

TEST_F(ExplainTimeline, ASlowStageIsTheStragglerWhenStagesAreDeclaredEqual) {
  const std::string path = Simulate("slow", "-s 1f1b -P 4 -M 8 --cost F=1000:1000:1500:1000,BW=2000:2000:3000:2000");
  const auto run = RunPpsim("explain " + path + " --json --equal-stages");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  ASSERT_FALSE(j["findings"].empty());
  EXPECT_EQ(j["findings"][0]["kind"], "straggler");
  EXPECT_EQ(j["findings"][0]["rank"], 2);
  EXPECT_EQ(j["measured"]["makespan_us"], 43.5);
  EXPECT_EQ(j["ideal"]["makespan_us"], 33.0);
}

TEST_F(ExplainTimeline, ASlowMicrobatchIsAHiccupOfItsOps) {
  const std::string path = Simulate("mb", "-s 1f1b -P 4 -M 8 --cost F=1000,BW=2000 --microbatch-costs 1:1:1:4:1:1:1:1");
  const auto run = RunPpsim("explain " + path + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  ASSERT_FALSE(j["findings"].empty());
  for (const json& f : j["findings"]) {
    EXPECT_EQ(f["kind"], "hiccup");
    EXPECT_EQ(f["op"].get<std::string>().back(), '3') << f.dump();  // microbatch 3
  }
}

TEST_F(ExplainTimeline, SearchsOrderIsAnOrderCandidate) {
  // ZB-H1 with unequal forwards: no registry schedule beats it within its
  // memory (4 sets per device), but ppsim search does, by 300 ns, and proves
  // it optimal: explain's order finding names search, and search on the
  // exported costs finds that makespan.
  const std::string path = Simulate("zbh1_uneven", "-s zb-h1 -P 4 -M 8 --cost F=1000:1300:1000:1200,B=1000,W=1000");
  const auto run = RunPpsim("explain " + path + " --json --export-costs " + dir_ + "/fitted.toml");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["ideal"]["makespan_us"], 29.2);
  ASSERT_EQ(j["findings"].size(), 1u) << j["findings"].dump();
  EXPECT_EQ(j["findings"][0]["kind"], "order");
  EXPECT_EQ(j["findings"][0]["op"], "search");
  EXPECT_EQ(j["findings"][0]["lost_us"], 0.3);
  const auto search = RunPpsim("search --cost-file " + dir_ + "/fitted.toml -P 4 -M 8 --max-activations 4 --json");
  ASSERT_EQ(search.exit_code, 0) << search.err;
  EXPECT_EQ(json::parse(search.out)["makespan"], 28900);
}

TEST_F(ExplainTimeline, WhatExplainCannotReadIsRefusedNamingTheOp) {
  const std::string empty = dir_ + "/empty.json";
  std::ofstream(empty) << R"({"ops": []})";
  const std::string trace = std::string(PPSIM_TEST_DATA_DIR) + "/traces/pub-1f1b-P2-M4-none/rank0.json";
  const std::string pair = Simulate("dualpipe", "-s dualpipe -P 4 -M 8");
  const std::string recompute = Simulate("recompute", "-s 1f1b -P 2 -M 2 --recompute full");
  const std::string plain = Simulate("plain", "-s 1f1b -P 2 -M 2");
  const struct {
    std::string args;
    int exit_code;
    std::string message;
  } cases[] = {
      {pair, 8, "is half of an overlapped pair; explain does not read overlapped (OVERLAP_F_B) actions yet"},
      {recompute, 8, "is a recompute op; explain reads F, B, I and W actions only"},
      {empty, 7, "empty.json: no traceEvents: not a profiler trace, nor a ppsim timeline (the timeline has no ops)"},
      {plain + " " + trace, 2, "plain.json is a ppsim timeline, which holds every rank: give it alone"},
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

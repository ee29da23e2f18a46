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

TEST_F(ExplainTimeline, OverlappedPairsReadAsPytorchsOverlapActions) {
  // DualPipeV's pairs: both halves in the timeline, one action in the order.
  const std::string path = Simulate("dualpipev", "-s dualpipev -P 4 -M 8 --cost F=1000,B=1000,W=1000,FB=2500");
  const json sim = json::parse(Slurp(path));
  const auto run = RunPpsim("explain " + path + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["schedule"], "dualpipev");
  const auto order = j["orders"][0].get<std::vector<std::string>>();
  const auto at = std::find(order.begin(), order.end(), "(0F7;7B3)OVERLAP_F_B");
  ASSERT_NE(at, order.end()) << j["orders"][0].dump();
  EXPECT_EQ(*std::next(at), "(7F4;0B0)OVERLAP_F_B");
  EXPECT_EQ(order.size(), 34u);  // 16 F, 16 B (8 as I + W, 2 alone), 5 pairs hold 5 F and 5 B
  // The pair's span, 2.5 us for two stages' halves, is FB per stage.
  EXPECT_EQ(j["costs_us"][0]["FB"], 1.25);
  const double makespan = sim["makespan"].get<double>() / 1000;
  EXPECT_EQ(makespan, 24.5);
  for (const char* r : {"measured", "replay", "ideal"}) EXPECT_EQ(j[r]["makespan_us"], makespan) << r;
  EXPECT_TRUE(j["findings"].empty()) << j["findings"].dump();
}

TEST_F(ExplainTimeline, DualPipesTwoCopiesReadAsDualPipe) {
  // Bidirectional DualPipe: stages 0-3 carry microbatches 0-3, stages 4-7
  // (a V on the ranks) carry 4-7.
  const std::string path = Simulate("dualpipe", "-s dualpipe -P 4 -M 8 --cost F=1000,B=1000,W=1000,FB=2500");
  const auto run = RunPpsim("explain " + path + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["schedule"], "dualpipe");
  EXPECT_EQ(j["stage_to_rank"], json::parse("[0, 1, 2, 3, 3, 2, 1, 0]"));
  EXPECT_EQ(j["orders"][0][7], "(0F3;7B5)OVERLAP_F_B");
  EXPECT_EQ(j["costs_us"][0]["FB"], 2.5);
  for (const char* r : {"measured", "replay", "ideal"}) EXPECT_EQ(j[r]["makespan_us"], 24.0) << r;
  EXPECT_TRUE(j["findings"].empty()) << j["findings"].dump();
}

TEST_F(ExplainTimeline, WhatExplainCannotReadIsRefusedNamingTheOp) {
  const std::string empty = dir_ + "/empty.json";
  std::ofstream(empty) << R"({"ops": []})";
  const std::string trace = std::string(PPSIM_TEST_DATA_DIR) + "/traces/pub-1f1b-P2-M4-none/rank0.json";
  // DualPipe's timeline with one pair's backward half taken out.
  json halved = json::parse(Slurp(Simulate("dualpipe", "-s dualpipe -P 4 -M 8")));
  json& ops = halved["ops"];
  const auto half = std::find_if(ops.begin(), ops.end(), [](const json& op) {
    return op.value("overlap", -1) >= 0 && op["kind"] == "B" && op["device"] == 1;
  });
  ASSERT_NE(half, ops.end());
  const json forward_half = *std::find_if(ops.begin(), ops.end(), [&](const json& op) {
    return op["device"] == 1 && op.value("overlap", -1) == (*half)["overlap"] && op["kind"] == "F";
  });
  ops.erase(half);
  const std::string pair = dir_ + "/halved.json";
  std::ofstream(pair) << halved.dump();
  const std::string named = "F" + std::to_string(forward_half["microbatch"].get<int>()) + "@s" +
                            std::to_string(forward_half["stage"].get<int>()) + " on device 1 is half of overlapped pair " +
                            std::to_string(forward_half["overlap"].get<int>()) +
                            ", whose other half (a backward starting with it, on the same device) is missing";
  const std::string recompute = Simulate("recompute", "-s 1f1b -P 2 -M 2 --recompute full");
  const std::string plain = Simulate("plain", "-s 1f1b -P 2 -M 2");
  const struct {
    std::string args;
    int exit_code;
    std::string message;
  } cases[] = {
      {pair, 8, "halved.json: " + named},
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

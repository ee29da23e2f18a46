// `ppsim search --comms RULE`: the order found, written out and simulated
// with the same comm model, ends where the search says; the summary and the
// JSON name the comm model; what cannot be searched with comms is refused
// with one line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

// P = 2, M = 4, two stage-sets, unit costs, PyTorch's lowering, one tick a
// transfer; the heuristics, not the clock, end it (docs/search.md).
const std::string kProblem = "-P 2 -M 4 --cost F=1,B=1,W=1 --comms pytorch --link-latency 1";
const std::string kSearch = "search " + kProblem + " --max-activations 2 --time-limit 60";

// The --json's ops as ppsim's text schedule: one line per device, in start order.
std::string TextSchedule(const nlohmann::json& j) {
  std::map<int, std::vector<std::pair<long long, std::string>>> devices;
  for (const auto& op : j["ops"])
    devices[op["device"].get<int>()].push_back(
        {op["start"].get<long long>(), op["kind"].get<std::string>() + std::to_string(op["microbatch"].get<int>())});
  std::string out;
  for (auto& [device, ops] : devices) {
    std::stable_sort(ops.begin(), ops.end());
    for (size_t i = 0; i < ops.size(); ++i) out += (i > 0 ? " " : "") + ops[i].second;
    out += "\n";
  }
  return out;
}

TEST(SearchCommsCli, TheOrderFoundSimulatesToTheSameMakespan) {
  auto run = RunPpsim(kSearch + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["makespan"], 18);  // 1F1B, first in the latency model (17), ends at 20 with comms
  EXPECT_EQ(j["lower_bound"], 17);  // the latency model's optimum at one tick a hop
  EXPECT_EQ(j["optimal"], false);
  EXPECT_EQ(j["comms"]["rule"], "pytorch");
  EXPECT_TRUE(j.contains("exposed_comm")) << run.out;
  const std::string file = "/tmp/ppsim_search_comms_" + std::to_string(::getpid()) + ".txt";
  std::ofstream(file) << TextSchedule(j);
  auto placed = RunPpsim("simulate --schedule-file " + file + " " + kProblem + " --json");
  std::remove(file.c_str());
  ASSERT_EQ(placed.exit_code, 0) << placed.err;
  EXPECT_EQ(nlohmann::json::parse(placed.out)["makespan"], j["makespan"]);
}

TEST(SearchCommsCli, TheSummaryNamesTheCommModel) {
  auto run = RunPpsim(kSearch);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("search  P=2 M=4 v=1 comms=pytorch link.latency=1\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("makespan 18  lower bound 17  gap 5.6%\n  not proven optimal"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("best fixed schedule that fits: zb-h1 18"), std::string::npos) << run.out;
}

// A scene's search (a run `schedule = "search"`) places with the scene's
// comm model too, and its claims read the comm placements.
TEST(SearchCommsCli, ASceneSearchesWithItsCommModel) {
  auto run = RunPpsim("check " PPSIM_SOURCE_DIR "/examples/search.toml --set comms=pytorch --set link.latency=1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("makespan(Found) = 42, makespan(ZB-H1) = 43"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("makespan(Found) = 42, makespan(1F1B) = 51"), std::string::npos) << run.out;
}

struct Refusal {
  const char* args;
  int exit_code;
  const char* message;
};

TEST(SearchCommsCli, WhatCannotBeSearchedWithCommsIsOneLine) {
  const Refusal refusals[] = {
      {"--max-activations 4 --comms megatron", 5,
       "ppsim: --comms megatron cannot place the search's orders (each backward split into B and W): "},
      {"--max-activations 4 --comms pytorch --recompute full", 5,
       "ppsim: --comms: search with recompute places without comm ops"},
      {"--max-activations 4 --link-latency 1", 2, "ppsim: --link-latency is a parameter of the comm model"},
      {"--model " PPSIM_SOURCE_DIR "/examples/models/llama_like.toml --comms pytorch", 2,
       "ppsim: --comms with --model: the split search places with --comm's latency model only"},
  };
  for (const Refusal& r : refusals) {
    auto run = RunPpsim(std::string("search -P 4 -M 8 ") + r.args);
    EXPECT_EQ(run.exit_code, r.exit_code) << r.args << ": " << run.err;
    EXPECT_EQ(run.err.rfind(r.message, 0), 0u) << r.args << ": " << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_TRUE(run.out.empty());
  }
}

}  // namespace
}  // namespace ppsim

// `ppsim simulate --comms ...` through the shipped binary: PyTorch's eager
// RECVs on one serialized stream make interleaved 1F1B's warm-up bubble
// (pytorch #188833) and deferring them closes it; a compute_comms file
// simulates as the lowering it holds; without --comms nothing changes; bad
// link values are one line with their code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <algorithm>
#include <string>

#include "cli/run_tool.h"
#include "cli/simulate_json.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::SimulateJson;

const char* const kInterleaved = "-s interleaved -P 4 --chunks 2 -M 8";

TEST(CommsCli, EagerRecvsMakeTheWarmUpBubbleDeferringClosesIt) {
  const nlohmann::json none = SimulateJson(kInterleaved);
  const nlohmann::json eager = SimulateJson(std::string(kInterleaved) + " --comms pytorch");
  const nlohmann::json deferred = SimulateJson(std::string(kInterleaved) + " --comms pytorch-deferred");
  EXPECT_EQ(none["makespan"], 38);
  EXPECT_EQ(eager["makespan"], 48);
  EXPECT_EQ(deferred["makespan"], 38);
  EXPECT_EQ(eager["exposed_comm_per_device"], nlohmann::json({0, 10, 3, 0}));
  EXPECT_EQ(deferred["exposed_comm"], 0);
  // Any number of RECVs in flight: the eager order costs nothing either.
  EXPECT_EQ(SimulateJson(std::string(kInterleaved) + " --comms pytorch --link-concurrency 0")["makespan"], 38);
}

TEST(CommsCli, MegatronsBlockingCallsCostWhatTheyHide) {
  // docs/comms.md's table: 1F1B P=4 M=8, link latency 1.
  const std::string one_f1b = "-s 1f1b -P 4 -M 8 --link-latency 1";
  const nlohmann::json megatron = SimulateJson(one_f1b + " --comms megatron");
  EXPECT_EQ(megatron["makespan"], 41);
  EXPECT_EQ(megatron["exposed_comm_per_device"], nlohmann::json({13, 20, 18, 8}));
  EXPECT_EQ(megatron["comms"]["rule"], "megatron");
  EXPECT_EQ(megatron["comms"]["posting"], "blocking");
  EXPECT_EQ(SimulateJson(one_f1b + " --comms adjacent")["exposed_comm"], 48);
  EXPECT_EQ(SimulateJson(one_f1b + " --comms adjacent")["comms"]["posting"], "async");
  EXPECT_EQ(SimulateJson("-s 1f1b -P 4 -M 8 --comms megatron")["makespan"], 22);  // latency 0: as without comms
}

// docs/comms.md's table: Megatron's interleaved loop (P = 4, v = 2, M = 8,
// F = 10, a full backward 20, link latency 3). Posting the next receive one
// step ahead (overlap_p2p_comm) finishes earlier and waits less than the
// blocking calls, with one RECV in flight per device (the default) and with
// two (one per peer).
TEST(CommsCli, MegatronOverlapFinishesEarlierThanItsBlockingCalls) {
  const std::string args = std::string(kInterleaved) + " --cost F=10,BW=20 --link-latency 3";
  const nlohmann::json blocking = SimulateJson(args + " --comms megatron");
  const nlohmann::json overlap = SimulateJson(args + " --comms megatron-overlap");
  const nlohmann::json overlap2 = SimulateJson(args + " --comms megatron-overlap --link-concurrency 2");
  EXPECT_EQ(SimulateJson(std::string(kInterleaved) + " --cost F=10,BW=20")["makespan"], 285);  // no comm ops
  EXPECT_EQ(blocking["makespan"], 360);
  EXPECT_EQ(blocking["exposed_comm_per_device"], nlohmann::json({80, 72, 66, 60}));
  EXPECT_EQ(overlap["makespan"], 332);
  EXPECT_EQ(overlap["exposed_comm"], 233);
  EXPECT_EQ(overlap2["makespan"], 327);
  EXPECT_EQ(overlap2["exposed_comm"], 190);
  EXPECT_EQ(blocking["comms"]["posting"], "blocking");
  EXPECT_EQ(overlap["comms"]["rule"], "megatron-overlap");
  EXPECT_EQ(overlap["comms"]["posting"], "mixed");
  // A latency ten times larger on one serialized stream: the receives
  // posted ahead hold back the sends behind them, and overlap loses.
  const std::string far = std::string(kInterleaved) + " --cost F=10,BW=20 --link-latency 10";
  EXPECT_EQ(SimulateJson(far + " --comms megatron")["makespan"], 535);
  EXPECT_EQ(SimulateJson(far + " --comms megatron-overlap")["makespan"], 630);
  EXPECT_EQ(SimulateJson(far + " --comms megatron-overlap --link-concurrency 2")["makespan"], 480);
}

TEST(CommsCli, MegatronRefusesWhatItsLoopsDoNotRun) {
  const testing::ToolRun overlap = RunPpsim("simulate -s 1f1b -P 4 -M 8 --comms megatron-overlap");
  EXPECT_EQ(overlap.exit_code, 5);
  EXPECT_EQ(overlap.err,
            "ppsim: --comms megatron-overlap: Megatron-LM runs overlap_p2p_comm only in its interleaved loop (v > 1; "
            "its 1F1B loop raises \"Non-interleaved pipeline parallelism does not support overlapping p2p "
            "communication\"): 1f1b has one stage per device\n");
  EXPECT_EQ(overlap.out, "");
  const testing::ToolRun bfs = RunPpsim("simulate -s looped-bfs -P 4 --chunks 2 -M 8 --comms megatron");
  EXPECT_EQ(bfs.exit_code, 5);
  EXPECT_EQ(bfs.err,
            "ppsim: --comms megatron lowers Megatron-LM's interleaved loop (Megatron's interleaved order, F and a full "
            "backward B): looped-bfs runs F4@s0 on device 0 where Megatron's order runs F0@s4\n");
  EXPECT_EQ(bfs.out, "");
}

TEST(CommsCli, BadLinkValuesAreOneLine) {
  struct Case {
    const char* args;
    int code;
    const char* err;
  };
  for (const Case& c : {
           Case{"--comms foo", 3, "ppsim: --comms: 'foo' is not one of none, pytorch, pytorch-deferred, adjacent, megatron, "
                                      "megatron-overlap, dualpipe\n"},
           Case{"--comms pytorch --link-bandwidth 0", 3, "ppsim: --link-bandwidth must be ≥ 1, got 0\n"},
           Case{"--comms pytorch --link-bytes 1:2", 3,
                "ppsim: --link-bytes needs one value or one per boundary (3), got 2\n"},
           Case{"-s dualpipe -M 8 --comms pytorch", 5,
                "ppsim: PyTorch's runtime cannot run dualpipe: its two pipelines (DualPipe) have no PyTorch schedule; "
                "use dualpipev\n"},
       }) {
    const testing::ToolRun run = RunPpsim(std::string("simulate ") + c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

// A link parameter means something only to the comm model: without comms
// it is refused, not ignored (simulate once placed 1F1B at 22 with
// --link-latency 3 and no --comms). compare takes it when a --with turns
// comms on.
TEST(CommsCli, LinkParametersWithoutCommsAreRefused) {
  for (const char* args : {"simulate -s 1f1b -P 4 -M 8 --link-latency 3",
                           "simulate -s 1f1b -P 4 -M 8 --comms none --link-bytes 100 --json",
                           "compare -s 1f1b -s gpipe -P 4 -M 8 --link-concurrency 2",
                           "compare -s 1f1b -P 4 -M 8 --link-latency 1 --with comms=none"}) {
    const testing::ToolRun run = RunPpsim(args);
    EXPECT_EQ(run.exit_code, 2) << args;
    EXPECT_EQ(run.err.rfind("ppsim: --link-", 0), 0u) << args << ": " << run.err;
    EXPECT_NE(run.err.find(" is a parameter of the comm model: give comms"), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_EQ(run.out, "") << args;
  }
  const testing::ToolRun with = RunPpsim("compare -s 1f1b -P 4 -M 8 --link-latency 1 --with comms=pytorch");
  EXPECT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.out.find("1f1b comms=pytorch"), std::string::npos) << with.out;
}

}  // namespace
}  // namespace ppsim

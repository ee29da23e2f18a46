// Scenes with communication as ops, through the shipped binary: `comms` and
// the `link.*` keys (a [link] table, or link.latency = 1) in a scene's top
// level and [[run]] give `ppsim check` the runs `simulate --comms` gives, so
// claims read comm_time and exposed_comm; `ppsim render` draws each compute
// op where the comm run placed it; an unknown link key is one line, exit 4.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_tool.h"
#include "cli/simulate_json.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::SimulateJson;

// Interleaved 1F1B, P=4 v=2 M=8, a stage costing F=2 BW=2 (a chunk 1 each):
// PyTorch's eager RECVs with one unit of link latency, against the deferred
// rule with none (a [[run]]'s link table overrides the top level's).
const char* const kScene = R"toml(title = "eager against deferred RECVs"
P = 4
M = 8
v = 2
costs = { F = 2, BW = 2 }
link.latency = 1

[[run]]
name = "Eager"
schedule = "interleaved"
comms = "pytorch"

[[run]]
name = "Deferred"
schedule = "interleaved"
comms = "pytorch-deferred"
link = { latency = 0 }

[[claim]]
check = "makespan(Deferred) < makespan(Eager)"

[[claim]]
check = "comm_time(Eager) > 0 and exposed_comm(Deferred) == 0"
)toml";

std::string WriteScene(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name + "_" + std::to_string(::getpid()) + ".toml";
  std::ofstream(path) << text;
  return path;
}

const char* const kEagerArgs =
    "-s interleaved -P 4 --chunks 2 -M 8 --cost F=2,BW=2 --comms pytorch --link-latency 1";

TEST(CommsScene, ClaimsSeeTheRunsSimulateGives) {
  const std::string scene = WriteScene("comms_scene", kScene);
  const testing::ToolRun run = RunPpsim("check " + scene);
  std::remove(scene.c_str());
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const nlohmann::json eager = SimulateJson(kEagerArgs);
  EXPECT_EQ(eager["makespan"], 101);
  EXPECT_EQ(eager["comm_time"], 112);
  EXPECT_NE(run.out.find("makespan(Deferred) < makespan(Eager) holds: makespan(Deferred) = 38, makespan(Eager) = 101"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("comm_time(Eager) = 112"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("exposed_comm(Deferred) = 0"), std::string::npos) << run.out;
}

TEST(CommsScene, SetReachesTheLinkKeys) {
  const std::string scene = WriteScene("comms_scene_set", kScene);
  const testing::ToolRun run = RunPpsim("check " + scene + " --set link.latency=2");
  std::remove(scene.c_str());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("makespan(Eager) = " +
                         SimulateJson("-s interleaved -P 4 --chunks 2 -M 8 --cost F=2,BW=2 --comms pytorch "
                                      "--link-latency 2")["makespan"]
                             .dump()),
            std::string::npos)
      << run.out;
}

// Each device's row of the text picture, built from simulate's ops: a cell
// per tick, the op's kind (lower case for the second chunk), '.' idle.
std::vector<std::string> RowsFromOps(const nlohmann::json& sim) {
  const int p = sim["P"], ticks = sim["makespan"];
  std::vector<std::string> rows(p, std::string(ticks, '.'));
  for (const nlohmann::json& op : sim["ops"]) {
    const std::string kind = op["kind"];
    const char c = op["stage"].get<int>() < p ? kind[0] : static_cast<char>(kind[0] - 'A' + 'a');
    for (int t = op["start"]; t < op["end"].get<int>(); ++t) rows[op["device"].get<int>()][t] = c;
  }
  return rows;
}

TEST(CommsScene, ThePictureDrawsTheOpsWhereTheCommRunPlacedThem) {
  const std::string scene = WriteScene("comms_scene_render", kScene);
  const testing::ToolRun run = RunPpsim("render " + scene + " -o - --format text --width 200");
  std::remove(scene.c_str());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> rows = RowsFromOps(SimulateJson(kEagerArgs));
  std::istringstream lines(run.out);
  std::string line;
  int device = 0;
  while (std::getline(lines, line) && device < 4) {  // the first run's rows: Eager's
    if (line.rfind("d" + std::to_string(device) + " ", 0) != 0) continue;
    // "~" is an idle cycle spent waiting on communication (the lanes, docs/rendering.md).
    std::replace(line.begin(), line.end(), '~', '.');
    EXPECT_NE(line.find(" " + rows[device] + " idle "), std::string::npos) << line << "\nwant " << rows[device];
    ++device;
  }
  EXPECT_EQ(device, 4) << run.out;
}

// examples/pytorch_recv_order.toml (pytorch #188833) at P = 2, 4, 6, 8 with
// M = 8: PyTorch's eager RECVs against deferred ones, exact makespans, so a
// change to either lowering or to the p2p stream shows here.
TEST(CommsScene, TheRecvOrderExampleHoldsItsFigures) {
  const std::string scene = std::string(PPSIM_SOURCE_DIR) + "/examples/pytorch_recv_order.toml";
  const struct {
    int p, deferred, eager, exposed;
  } kFigures[] = {{4, 38, 48, 13}, {6, 42, 76, 40}, {8, 46, 96, 56}};
  for (const auto& f : kFigures) {
    const testing::ToolRun run = RunPpsim("check " + scene + " --set P=" + std::to_string(f.p));
    EXPECT_EQ(run.exit_code, 0) << f.p << ": " << run.out << run.err;
    EXPECT_NE(run.out.find("makespan(Deferred) = " + std::to_string(f.deferred) +
                           ", makespan(Eager) = " + std::to_string(f.eager)),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("exposed_comm(Eager) = " + std::to_string(f.exposed) + ", exposed_comm(Deferred) = 0"),
              std::string::npos)
        << run.out;
    EXPECT_NE(run.out.find("all 9 claims hold"), std::string::npos) << run.out;
  }
  // At P = 2 the eager order costs nothing: the two claims that it does are false.
  const testing::ToolRun two = RunPpsim("check " + scene + " --set P=2");
  EXPECT_EQ(two.exit_code, 11);
  EXPECT_NE(two.out.find("makespan(Deferred) < makespan(Eager) is false: makespan(Deferred) = 34, makespan(Eager) = 34"),
            std::string::npos)
      << two.out;
  EXPECT_NE(two.out.find("2 of 9 claims are false"), std::string::npos) << two.out;
}

// simulate --json states the link parameters in the user's units and in
// ticks: v = 2 makes a unit 2 ticks, so latency 1 is 2 ticks, and a transfer
// of 100 bytes at 30 bytes a unit lasts 2 + ceil(100 * 2 / 30) = 9 ticks.
TEST(CommsScene, TheJsonStatesTheLinkInUnitsAndTicks) {
  const nlohmann::json run = SimulateJson(
      "-s interleaved -P 4 --chunks 2 -M 8 --comms pytorch --link-latency 1 --link-bytes 100 --link-bandwidth 30");
  ASSERT_TRUE(run.contains("comms")) << run.dump();
  const nlohmann::json& c = run["comms"];
  EXPECT_EQ(c["rule"], "pytorch");
  EXPECT_EQ(c["posting"], "async");
  EXPECT_EQ(c["ticks_per_unit"], 2);
  EXPECT_EQ(c["latency"], nlohmann::json({{"ticks", 2}, {"units", 1}}));
  EXPECT_EQ(c["bandwidth_bytes_per_unit"], 30);
  EXPECT_EQ(c["concurrency"], 1);
  EXPECT_EQ(c["transfer_bytes"], nlohmann::json(std::vector<int>(7, 100)));
  EXPECT_EQ(c["transfer_ticks"], nlohmann::json(std::vector<int>(7, 9)));
  EXPECT_EQ(c["send_release"], "step_end");
  // Without --comms there is no block.
  EXPECT_FALSE(SimulateJson("-s interleaved -P 4 --chunks 2 -M 8").contains("comms"));
}

// PyTorch PR #193903: send buffers held to the step's end (PyTorch's
// runtime, the default) against freed at completion: same step, and the
// fullest device's send buffers 32 transfers against 3.
TEST(CommsScene, SendReleaseFreesBuffersAtCompletion) {
  const std::string args = "-s interleaved -P 4 --chunks 2 -M 8 --comms pytorch --link-bytes 1000";
  const nlohmann::json end = SimulateJson(args), done = SimulateJson(args + " --link-send-release completion");
  EXPECT_EQ(end["comms"]["send_release"], "step_end");
  EXPECT_EQ(done["comms"]["send_release"], "completion");
  EXPECT_EQ(end["makespan"], done["makespan"]);
  EXPECT_EQ(end["peak_send_bytes"], 32000);  // devices 1 and 2: F and B of both chunks, 8 microbatches
  EXPECT_EQ(done["peak_send_bytes"], 3000);
  const testing::ToolRun bad = RunPpsim("simulate " + args + " --link-send-release soon");
  EXPECT_EQ(bad.exit_code, 3);  // an invalid value
  EXPECT_NE(bad.err.find("--link-send-release: 'soon' is not one of step_end, completion"), std::string::npos)
      << bad.err;
  EXPECT_TRUE(bad.out.empty());
  // The example scene's claims hold: same makespan, more bytes held to the end.
  const testing::ToolRun check = RunPpsim("check " + std::string(PPSIM_SOURCE_DIR) + "/examples/send_buffers.toml");
  EXPECT_EQ(check.exit_code, 0) << check.err;
}

TEST(CommsScene, AnUnknownLinkKeyIsOneLine) {
  std::string text = kScene;
  text.replace(text.find("latency = 0"), 7, "lat");
  const std::string scene = WriteScene("comms_scene_bad", text);
  const testing::ToolRun run = RunPpsim("check " + scene);
  std::remove(scene.c_str());
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_NE(run.err.find(":17:10: unknown key 'link.lat' (known: latency, bandwidth, concurrency, bytes, send_release)"),
            std::string::npos)
      << run.err;
  EXPECT_TRUE(run.out.empty()) << run.out;
}

}  // namespace
}  // namespace ppsim

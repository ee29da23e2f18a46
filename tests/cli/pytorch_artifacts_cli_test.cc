// PyTorch's own test artifacts through the shipped binary: `simulate
// --schedule-file` runs them (which PyTorch's lock-step simulator cannot do
// with durations), and the compute_comms one with its own SEND/RECV order.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::Slurp;

const std::string kArtifacts = std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_artifacts/";

// The stored artifacts have LF; PyTorch's csv.writer, and ppsim, write CRLF.
std::string Crlf(const std::string& lf) {
  std::string out;
  for (char c : lf) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

// `ppsim simulate --schedule-file FILE ARGS --export FORMAT -o OUT`: OUT's bytes.
std::string Export(const std::string& file, const std::string& args, const std::string& format) {
  const std::string out = "/tmp/ppsim_artifact_" + std::to_string(::getpid()) + ".csv";
  auto run = RunPpsim("simulate --schedule-file " + kArtifacts + file + " " + args + " --export " + format + " -o " + out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::string bytes = Slurp(out);
  std::remove(out.c_str());
  return bytes;
}

nlohmann::json SimulateArtifact(const std::string& file, const std::string& args) {
  auto run = RunPpsim("simulate --schedule-file " + std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_artifacts/" + file +
                      " " + args + " --json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out, nullptr, false);
}

TEST(PytorchArtifactsCli, Zb1pRunsWithItsOwnCommunication) {
  const nlohmann::json plain = SimulateArtifact("zb1p_2rank_2stagep_comms.csv", "");
  EXPECT_EQ(plain["P"], 2);
  EXPECT_EQ(plain["v"], 2);
  EXPECT_EQ(plain["M"], 8);
  EXPECT_EQ(plain["makespan"], 66);  // unit stage costs, a chunk 1/2, 1 tick = 1/4 unit
  EXPECT_EQ(plain["busy"], 128);
  // Its own SEND/RECV order, placed on the links: free at zero latency.
  const nlohmann::json comms = SimulateArtifact("zb1p_2rank_2stagep_comms.csv", "--comms pytorch");
  EXPECT_EQ(comms["makespan"], 66);
  EXPECT_EQ(comms["exposed_comm"], 0);
  EXPECT_EQ(comms["busy"], 128);
}

TEST(PytorchArtifactsCli, DualPipeVRuns) {
  const nlohmann::json t = SimulateArtifact("dualpipev_4rank_10mb.csv", "");
  EXPECT_EQ(t["P"], 4);
  EXPECT_EQ(t["M"], 10);
  EXPECT_EQ(t["placement"], "v-shape");
  EXPECT_EQ(t["makespan"], 92);
  EXPECT_EQ(t["busy"], 320);
}

TEST(PytorchArtifactsCli, WrittenBackByteForByte) {
  // The compute_comms file's own SEND/RECV program, not lowered again
  // (a lowering would add UNSHARD and RESHARD), with comms modelled or not.
  const std::string zb1p = Crlf(Slurp(kArtifacts + "zb1p_2rank_2stagep_comms.csv"));
  EXPECT_EQ(Export("zb1p_2rank_2stagep_comms.csv", "", "pytorch-comms-csv"), zb1p);
  EXPECT_EQ(Export("zb1p_2rank_2stagep_comms.csv", "--comms pytorch --link-latency 2", "pytorch-comms-csv"), zb1p);
  EXPECT_EQ(Export("dualpipev_4rank_10mb.csv", "", "pytorch-csv"), Crlf(Slurp(kArtifacts + "dualpipev_4rank_10mb.csv")));
}

}  // namespace
}  // namespace ppsim

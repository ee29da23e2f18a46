// `ppsim simulate --comms ...` through the shipped binary: PyTorch's eager
// RECVs on one serialized stream make interleaved 1F1B's warm-up bubble
// (pytorch #188833) and deferring them closes it; a compute_comms file
// simulates as the lowering it holds; without --comms nothing changes; bad
// link values are one line with their code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

nlohmann::json Json(const std::string& args) {
  const testing::ToolRun run = RunPpsim("simulate " + args + " --json");
  EXPECT_EQ(run.exit_code, 0) << args << ": " << run.err;
  return nlohmann::json::parse(run.out, nullptr, false);
}

const char* const kInterleaved = "-s interleaved -P 4 --chunks 2 -M 8";

TEST(CommsCli, EagerRecvsMakeTheWarmUpBubbleDeferringClosesIt) {
  const nlohmann::json none = Json(kInterleaved);
  const nlohmann::json eager = Json(std::string(kInterleaved) + " --comms pytorch");
  const nlohmann::json deferred = Json(std::string(kInterleaved) + " --comms pytorch-deferred");
  EXPECT_EQ(none["makespan"], 38);
  EXPECT_EQ(eager["makespan"], 48);
  EXPECT_EQ(deferred["makespan"], 38);
  EXPECT_EQ(eager["exposed_comm_per_device"], nlohmann::json({0, 10, 3, 0}));
  EXPECT_EQ(deferred["exposed_comm"], 0);
  // Any number of RECVs in flight: the eager order costs nothing either.
  EXPECT_EQ(Json(std::string(kInterleaved) + " --comms pytorch --link-concurrency 0")["makespan"], 38);
}

TEST(CommsCli, MegatronsBlockingCallsCostWhatTheyHide) {
  // docs/comms.md's table: 1F1B P=4 M=8, link latency 1.
  const std::string one_f1b = "-s 1f1b -P 4 -M 8 --link-latency 1";
  const nlohmann::json megatron = Json(one_f1b + " --comms megatron");
  EXPECT_EQ(megatron["makespan"], 41);
  EXPECT_EQ(megatron["exposed_comm_per_device"], nlohmann::json({13, 20, 18, 8}));
  EXPECT_EQ(megatron["comms"]["rule"], "megatron");
  EXPECT_EQ(megatron["comms"]["posting"], "blocking");
  EXPECT_EQ(Json(one_f1b + " --comms adjacent")["exposed_comm"], 48);
  EXPECT_EQ(Json(one_f1b + " --comms adjacent")["comms"]["posting"], "async");
  EXPECT_EQ(Json("-s 1f1b -P 4 -M 8 --comms megatron")["makespan"], 22);  // latency 0: as without comms
  const testing::ToolRun interleaved = RunPpsim(std::string("simulate ") + kInterleaved + " --comms megatron");
  EXPECT_EQ(interleaved.exit_code, 5);
  EXPECT_NE(interleaved.err.find("--comms megatron lowers Megatron-LM's 1F1B loop (one stage per device, F and a full "
                                 "backward B): interleaved has more than one stage per device"),
            std::string::npos)
      << interleaved.err;
  EXPECT_EQ(interleaved.out, "");
}

TEST(CommsCli, WithoutCommsTheJsonHasNoCommKeys) {
  const nlohmann::json none = Json(kInterleaved);
  EXPECT_FALSE(none.contains("comm_time"));
  EXPECT_FALSE(none.contains("exposed_comm_per_device"));
  const nlohmann::json on = Json(std::string(kInterleaved) + " --comms adjacent");
  EXPECT_TRUE(on.contains("peak_send_bytes_per_device"));
}

// PyTorch's lowering written as its compute_comms CSV, read back and run as
// the file's own program: the same run as the lowering in memory.
TEST(CommsCli, AComputeCommsFileRunsAsItsProgram) {
  const std::string path = "/tmp/ppsim_comms_cli_" + std::to_string(::getpid()) + ".csv";
  const testing::ToolRun exported =
      RunPpsim(std::string("simulate ") + kInterleaved + " --export pytorch-comms-csv -o " + path);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const std::string link = " --link-latency 1 --link-bytes 100 --link-bandwidth 50";
  const nlohmann::json file = Json("--schedule-file " + path + " --comms pytorch" + link);
  const nlohmann::json lowered = Json(std::string(kInterleaved) + " --comms pytorch" + link);
  std::remove(path.c_str());
  EXPECT_EQ(file["makespan"], lowered["makespan"]);
  EXPECT_EQ(file["exposed_comm_per_device"], lowered["exposed_comm_per_device"]);
  // Device 1 (stages 1 and 5) sends 4 tensors a microbatch, all 32 of the
  // step held to its end as PyTorch's runtime holds them.
  EXPECT_EQ(file["peak_send_bytes"], 3200);
}

TEST(CommsCli, BadLinkValuesAreOneLine) {
  struct Case {
    const char* args;
    int code;
    const char* err;
  };
  for (const Case& c : {
           Case{"--comms foo", 3, "ppsim: --comms: 'foo' is not one of none, pytorch, pytorch-deferred, adjacent, megatron\n"},
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

}  // namespace
}  // namespace ppsim

// `ppsim simulate --comms dualpipe` through the shipped binary: DeepSeek's
// own blocking batches (src/core/comm_dualpipe.cc) against PyTorch's
// runtime lowering of the same dualpipev order, and the one-line refusal of
// every other schedule.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_tool.h"
#include "cli/simulate_json.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::SimulateJson;

// docs/comms.md's table: dualpipev P=4 M=8, unit costs (a tick is a quarter
// unit, a chunk's F two ticks), link latency 1 unit = 4 ticks.
TEST(CommsDualPipeCli, DeepSeeksBatchesAgainstPytorchsLowering) {
  const std::string v = "-s dualpipev -P 4 -M 8 --link-latency 1";
  const nlohmann::json own = SimulateJson(v + " --comms dualpipe");
  const nlohmann::json pytorch = SimulateJson(v + " --comms pytorch");
  EXPECT_EQ(own["makespan"], 189);
  EXPECT_EQ(own["exposed_comm"], 374);
  EXPECT_EQ(own["exposed_comm_per_device"], nlohmann::json({76, 116, 110, 72}));
  EXPECT_EQ(own["comms"]["rule"], "dualpipe");
  EXPECT_EQ(own["comms"]["posting"], "blocking");
  // PyTorch's eager RECVs hold its serialized stream back (head-of-line
  // blocking); any number in flight, its run ends at 163.
  EXPECT_EQ(pytorch["makespan"], 289);
  EXPECT_EQ(pytorch["exposed_comm"], 469);
  EXPECT_EQ(SimulateJson(v + " --comms pytorch --link-concurrency 0")["makespan"], 163);
  // A batch posts as one group (batch_isend_irecv): its RECVs queue only
  // behind those posted before it, so the stream's limit changes nothing.
  EXPECT_EQ(SimulateJson(v + " --comms dualpipe --link-concurrency 0")["makespan"], 189);
  EXPECT_EQ(SimulateJson("-s dualpipev -P 4 -M 8 --comm 1")["makespan"], 159);  // the latency model
  // With no latency a blocking SEND still waits for its peer's RECV: W0@s5's
  // batch on device 2 holds SEND_B0@s5, met when device 3 posts RECV_B0@s4
  // after F4@s3; one tick more than without comms.
  const nlohmann::json zero = SimulateJson("-s dualpipev -P 4 -M 8 --comms dualpipe");
  EXPECT_EQ(zero["makespan"], 77);
  EXPECT_EQ(zero["exposed_comm_per_device"], nlohmann::json({0, 0, 2, 0}));
  EXPECT_EQ(SimulateJson("-s dualpipev -P 4 -M 8")["makespan"], 76);
  // DualPipe's two copies, which PyTorch's runtime cannot run.
  const nlohmann::json dual = SimulateJson("-s dualpipe -P 4 -M 8 --link-latency 1 --comms dualpipe");
  EXPECT_EQ(dual["makespan"], 60);
  EXPECT_EQ(dual["exposed_comm_per_device"], nlohmann::json({20, 26, 26, 20}));
}

TEST(CommsDualPipeCli, OtherSchedulesAreOneLine) {
  const testing::ToolRun zbv = RunPpsim("simulate -s zbv -P 4 -M 8 --comms dualpipe");
  EXPECT_EQ(zbv.exit_code, 5);
  EXPECT_EQ(zbv.err,
            "ppsim: --comms dualpipe lowers DeepSeek's DualPipe and DualPipeV step(): zbv is neither dualpipe "
            "nor dualpipev\n");
  EXPECT_EQ(zbv.out, "");
  const testing::ToolRun search = RunPpsim("search -P 4 -M 8 --max-activations 4 --comms dualpipe");
  EXPECT_EQ(search.exit_code, 5);
  EXPECT_EQ(search.err.rfind("ppsim: --comms dualpipe cannot place the search's orders (each backward split into B "
                             "and W): --comms dualpipe lowers DeepSeek's DualPipe and DualPipeV step(): ",
                             0),
            0u)
      << search.err;
  EXPECT_EQ(search.out, "");
}

}  // namespace
}  // namespace ppsim

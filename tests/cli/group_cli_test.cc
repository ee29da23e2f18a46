// `--group g` (Megatron's microbatch_group_size_per_vp_stage) on the command
// line: Megatron's order where Megatron accepts g, its reason (exit 5)
// where it does not, and a flag error for a value that is not a group size.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_tool.h"
#include "ppsim/error.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

TEST(GroupCli, MegatronsPublicCaseRuns) {
  auto run = RunPpsim("simulate -s interleaved -P 4 -M 9 --chunks 2 --group 5 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["makespan"], 42);  // (vM+P-1)(F+B) = (18+3)·2
  EXPECT_EQ(j["ops"].size(), 2u * 2 * 4 * 9);
}

TEST(GroupCli, RefusalsNameTheRule) {
  auto run = RunPpsim("simulate -s interleaved -P 4 -M 10 --chunks 2 --group 4");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kPrecondition));
  EXPECT_EQ(run.err,
            "ppsim: --group 4: interleaved: M mod group must be 0 or at least P = 4, but M = 10 leaves a last group "
            "of 2 (Megatron refuses it: a shorter last group leaves dependency bubbles)\n");
  EXPECT_EQ(run.out, "");
  run = RunPpsim("simulate -s interleaved -P 4 -M 9 --chunks 2 --group 0");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kInvalidValue));
  EXPECT_EQ(run.err, "ppsim: --group must be ≥ 1, got 0\n");
  run = RunPpsim("simulate -s zbv -P 4 -M 8 --group 4");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kPrecondition));
  EXPECT_NE(run.err.find("--group applies only to interleaved"), std::string::npos) << run.err;
}

// Megatron's combined 1F1B: its public case as overlapped pairs, and its
// refusals (exit 5) with Megatron's reasons and no output.
TEST(GroupCli, Combined1F1BPairsAndRefusals) {
  auto run = RunPpsim("simulate -s combined-1f1b -P 2 -M 4 --chunks 2 --group 2 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["makespan"], 18);  // (vM+P-1)(F+B) = (8+1)·2
  int paired = 0;
  for (const auto& op : j["ops"]) paired += op.contains("overlap") ? 1 : 0;
  EXPECT_EQ(paired, 2 * (3 + 5));  // Megatron's order: 3 pairs on rank 0, 5 on rank 1
  run = RunPpsim("simulate -s combined-1f1b -P 4 -M 8");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kPrecondition));
  EXPECT_EQ(run.err,
            "ppsim: --chunks must be ≥ 2 for combined-1f1b when P > 1 (Megatron: if enabling EP A2A overlap, "
            "virtual_pipeline_model_parallel_size must be specified when pipeline_model_parallel_size > 1); got "
            "1\n");
  EXPECT_EQ(run.out, "");
  run = RunPpsim("simulate -s combined-1f1b -P 4 -M 9 --chunks 2 --group 3");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kPrecondition));
  EXPECT_NE(run.err.find("microbatch_group_size_per_vp_stage) must lie in [P = 4, M = 9]"), std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace ppsim

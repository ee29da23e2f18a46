// Sequence slices through the shipped binary: `simulate -s seq1f1b
// --slices K` gives every op its slice in --json and the makespan
// (M + (P-1)/K)(F+B+W); bad slice input is one line with its exit code,
// before anything is allocated.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

TEST(SlicesCli, JsonCarriesEachOpsSliceAndTheRecordedOrder) {
  auto run = RunPpsim("simulate -s seq1f1b -P 2 -M 4 --slices 2 --cost F=2,B=2,W=2 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["M"], 4);
  EXPECT_EQ(j["slices"], 2);
  EXPECT_EQ(j["makespan"], 27);  // (4 + 1/2) × 6
  std::string rank0;
  for (const auto& op : j["ops"])
    if (op["device"] == 0)
      rank0 += std::string(op["kind"]) + std::to_string(int(op["microbatch"])) + "." +
               std::to_string(int(op["slice"])) + " ";
  EXPECT_EQ(rank0, "F0.0 F0.1 F1.0 B0.1 F1.1 B0.0 F2.0 B1.1 F2.1 B1.0 F3.0 B2.1 F3.1 B2.0 B3.1 B3.0 ");
}

TEST(SlicesCli, OneSliceKeepsTheOutputOf1F1B) {
  auto a = RunPpsim("simulate -s seq1f1b -P 4 -M 6 --slices 1 --format text --width 100");
  auto b = RunPpsim("simulate -s 1f1b -P 4 -M 6 --format text --width 100");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  for (size_t at = a.out.find("seq1f1b"); at != std::string::npos; at = a.out.find("seq1f1b"))
    a.out.replace(at, 7, "1f1b");  // all but the schedule's name
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(RunPpsim("simulate -s 1f1b -P 4 -M 6 --json").out.find("slice"), std::string::npos);
}

TEST(SlicesCli, BadSliceInputIsOneLineWithItsExitCode) {
  struct Case {
    const char* args;
    int code;
    const char* err;
  };
  const Case cases[] = {
      {"-s seq1f1b --slices 100000", 6, "ppsim: --slices: 100000 exceeds the limit 1024\n"},
      {"-s seq1f1b --slices 0", 3, "ppsim: --slices must be ≥ 1, got 0\n"},
      {"-s seq1f1b --slices 2 --slice-costs 1:2:3", 3, "ppsim: --slice-costs: 3 values given for 2 slices\n"},
      {"-s seq1f1b --slices 3 --seq-len 4096", 3,
       "ppsim: --slices: 3 slices do not cut seq_len = 4096 into equal parts\n"},
      {"-s seq1f1b --slices 2 --slice-costs causal", 3,
       "ppsim: --slice-costs: causal needs seq_len and hidden (the cost of slice k is 12·hidden·K + K + "
       "seq_len·(2k+1), docs/semantics.md)\n"},
      {"-s seq1f1b --slices 2 --slice-costs quadratic", 3, "ppsim: --slice-costs: 'quadratic' is not one of equal, causal\n"},
      {"-s 1f1b --slices 2", 5, "ppsim: --slices applies only to seq1f1b; 1f1b runs whole microbatches\n"},
      {"-s seq1f1b -P 4096 -M 1048576 --slices 1024", 6, nullptr},
  };
  for (const Case& c : cases) {
    auto run = RunPpsim(std::string("simulate ") + c.args + " --json");
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    EXPECT_EQ(run.out, "") << c.args;
    if (c.err != nullptr) {
      EXPECT_EQ(run.err, c.err) << c.args;
    }
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

TEST(SlicesCli, SearchRefusesSlices) {
  auto run = RunPpsim("search -P 2 -M 2 --slices 2 --max-activations 4");
  EXPECT_EQ(run.exit_code, 5);
  EXPECT_EQ(run.err, "ppsim: --slices applies only to seq1f1b; search orders whole microbatches\n");
  EXPECT_EQ(run.out, "");
}

TEST(SlicesCli, TheSceneHoldsItsClaims) {
  auto run = RunPpsim(std::string("check ") + PPSIM_SOURCE_DIR + "/examples/seq1f1b_vs_1f1b.toml");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("makespan(Seq1F1B) = 105, makespan(1F1B) = 132"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("device_peak(Seq1F1B) = 7/4 (1.7500), device_peak(1F1B) = 4"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace ppsim

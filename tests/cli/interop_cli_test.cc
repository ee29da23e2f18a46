// `simulate --schedule-file`, `--export pytorch-csv|text` and `--format
// trace`, end to end through the built binary.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/run_tool.h"
#include "io/conformance_csv.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::Slurp;

class InteropCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ppsim_interop_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  }
  std::filesystem::path dir_;
};

TEST_F(InteropCli, ZbvExportIsPytorchsOwnCsv) {
  const std::string out = Path("zbv.csv");
  auto run = RunPpsim("simulate --schedule zbv -P 4 -M 8 --export pytorch-csv -o " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const auto& e : testing::LoadConformance()) {
    if (e.schedule == "ScheduleZBVZeroBubble") {
      EXPECT_EQ(Slurp(out), e.csv);
    }
  }
}

// PyTorch's runtime order with communication, as its _dump_csv writes it
// (tests/data/pytorch_comms_public.json: ScheduleInterleaved1F1B P=2 v=2 M=4).
TEST_F(InteropCli, InterleavedCommsExportIsPytorchsOwnComputeCommsCsv) {
  const std::string out = Path("comms.csv");
  auto run = RunPpsim("simulate --schedule interleaved -P 2 -M 4 --chunks 2 --export pytorch-comms-csv -o " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_comms_public.json");
  const nlohmann::json doc = nlohmann::json::parse(in);
  for (const nlohmann::json& e : doc["entries"])
    if (e["schedule"] == "ScheduleInterleaved1F1B") EXPECT_EQ(Slurp(out), e["csv_compute_comms"].get<std::string>());
  // PyTorch's own file read back (its comm actions checked) and lowered again: the same bytes.
  const std::string again = Path("again.csv");
  auto reread = RunPpsim("simulate --schedule-file " + out + " --export pytorch-comms-csv -o " + again);
  ASSERT_EQ(reread.exit_code, 0) << reread.err;
  EXPECT_EQ(Slurp(again), Slurp(out));
}

TEST_F(InteropCli, CsvReadAndExportedAgainIsByteIdentical) {
  for (const auto& e : testing::LoadConformance()) {
    SCOPED_TRACE(e.schedule);
    const std::string in = Write("in.csv", e.csv), out = Path("out.csv");
    auto run = RunPpsim("simulate --schedule-file " + in + " --export pytorch-csv -o " + out);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(Slurp(out), e.csv);  // also DualPipeV's, which mixes full B with I/W
  }
}

TEST_F(InteropCli, ScheduleFileSimulatesLikeTheNamedSchedule) {
  auto text = RunPpsim("simulate --schedule 1f1b -P 4 -M 6 --export text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string file = Write("1f1b.txt", text.out);
  auto from_file = RunPpsim("simulate --schedule-file " + file + " --cost F=1,BW=2 --comm 1 --json");
  auto named = RunPpsim("simulate --schedule 1f1b -P 4 -M 6 --cost F=1,BW=2 --comm 1 --json");
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  const auto a = nlohmann::json::parse(from_file.out), b = nlohmann::json::parse(named.out);
  EXPECT_EQ(a["makespan"], b["makespan"]);
  EXPECT_EQ(a["ops"], b["ops"]);
  EXPECT_EQ(a["peak_activations"], 9);
}

TEST_F(InteropCli, ExampleScheduleFiles) {
  const std::string ex = std::string(PPSIM_SOURCE_DIR) + "/examples/";
  auto custom = RunPpsim("simulate --schedule-file " + ex + "custom_1f1b.txt --json");
  auto named = RunPpsim("simulate --schedule 1f1b -P 4 -M 6 --json");
  ASSERT_EQ(custom.exit_code, 0) << custom.err;
  EXPECT_EQ(nlohmann::json::parse(custom.out)["ops"], nlohmann::json::parse(named.out)["ops"]);
  // The example CSV is PyTorch's own ZB-V order for P = 4, M = 8.
  for (const auto& e : testing::LoadConformance()) {
    if (e.schedule == "ScheduleZBVZeroBubble") {
      EXPECT_EQ(Slurp(ex + "zbv_p4_m8.csv"), e.csv);
    }
  }
  auto zbv = RunPpsim("simulate --schedule-file " + ex + "zbv_p4_m8.csv --json");
  ASSERT_EQ(zbv.exit_code, 0) << zbv.err;
  EXPECT_EQ(nlohmann::json::parse(zbv.out)["P"], 4);
}

TEST_F(InteropCli, TraceFile) {
  const std::string out = Path("t.json");
  auto run = RunPpsim("simulate --schedule gpipe -P 4 -M 6 --format trace --tick-us 10 -o " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
  const auto doc = nlohmann::json::parse(Slurp(out));
  int slices = 0;
  std::int64_t last_end = 0;
  for (const auto& e : doc["traceEvents"])
    if (e["ph"] == "X") {
      ++slices;
      last_end = std::max(last_end, e["ts"].get<std::int64_t>() + e["dur"].get<std::int64_t>());
    }
  EXPECT_EQ(slices, 48);
  EXPECT_EQ(last_end, 18 * 10);  // makespan 18 ticks of 10 us
}

TEST_F(InteropCli, ErrorsAreOneLineWithDistinctExitCodes) {
  struct Case {
    std::string file, text;
    int code;
    std::string message;
  };
  const Case cases[] = {
      {"junk.csv", "0F0,0F1x\r\n", 7, "junk.csv:1:8: unexpected 'x' after action 0F1"},
      {"send.csv", "0F0,0SEND_F0\r\n", 8, "send.csv:1:5: 0SEND_F0 pairs with stage 1, which no rank computes"},
      {"bw.csv", "0F0,0BW0\r\n", 7, "bw.csv:1:6: unknown action type 'BW'"},
      {"syntax.txt", "F0 B0\nF0 Q0\n", 7, "syntax.txt:2:4: expected an op"},
      {"missing.txt", "F0 F1 B0\nF0 B0 F1 B1\n", 8, "missing.txt: B1@s0 is missing (expected on device 0)"},
      {"dup.txt", "F0 B0 F0\nF0 B0\n", 8, "dup.txt:1:7: F0@s0 appears twice (first at 1:1)"},
      {"dead.txt", "F0 B0 F1 B1\nF1 B1 F0 B0\n", 9,
       "dead.txt: deadlock: device 0 waits on B0@s1 before B0@s0; device 1 waits on F1@s0 before F1@s1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = Write(c.file, c.text);
    auto run = RunPpsim("simulate --schedule-file " + path);
    EXPECT_EQ(run.exit_code, c.code);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_NE(run.err.find("ppsim: " + Path(c.message)), std::string::npos) << run.err;
  }
  auto missing = RunPpsim("simulate --schedule-file " + Path("nope.txt"));
  EXPECT_EQ(missing.exit_code, 12);
}

TEST_F(InteropCli, UnwritableOutputLeavesNothingBehind) {
  const std::string file = Write("a.txt", "F0 F1 B0 B1\nF0 B0 F1 B1\n");
  auto run = RunPpsim("simulate --schedule-file " + file + " --format trace -o " + Path("no/such/dir/t.json"));
  EXPECT_EQ(run.exit_code, 12);
  EXPECT_NE(run.err.find("cannot write"), std::string::npos) << run.err;
  // A failing run keeps the previous output intact.
  const std::string prev = Write("keep.csv", "previous");
  const std::string dead = Write("dead.txt", "F0 B0 F1 B1\nF1 B1 F0 B0\n");
  run = RunPpsim("simulate --schedule-file " + dead + " --export pytorch-csv -o " + prev);
  EXPECT_EQ(run.exit_code, 9);
  EXPECT_EQ(Slurp(prev), "previous");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) files += entry.is_regular_file();
  EXPECT_EQ(files, 3);  // a.txt, keep.csv, dead.txt: no temp file left
}

TEST_F(InteropCli, ShapeFlagsMustAgreeWithTheFile) {
  const std::string file = Write("a.txt", "F0 F1 B0 B1\nF0 B0 F1 B1\n");
  EXPECT_EQ(RunPpsim("simulate --schedule-file " + file + " -P 2 -M 2").exit_code, 0);
  auto run = RunPpsim("simulate --schedule-file " + file + " -P 3");
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(RunPpsim("simulate --schedule-file " + file + " --schedule gpipe").exit_code, 2);
}

}  // namespace
}  // namespace ppsim

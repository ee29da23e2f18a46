// PyTorch's runtime lowering (UNSHARD/RESHARD, REDUCE_GRAD, SEND/RECV: core's
// LowerPytorch, comm_lowering.h) and its compute_comms CSV, against the order
// and the bytes recorded from PyTorch's own code
// (tests/data/pytorch_comms_public.json).
#include "ppsim/io/pytorch_lowering.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsim/comm_lowering.h"
#include "ppsim/generators.h"
#include "ppsim/io/pytorch_program.h"

namespace ppsim {
namespace {

nlohmann::json Entry(const std::string& schedule) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_comms_public.json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str());
  for (const nlohmann::json& e : doc["entries"])
    if (e["schedule"] == schedule) return e;
  ADD_FAILURE() << "no entry " << schedule;
  return {};
}

// Rows of action strings (null: an idle step) as CSV text.
std::string CsvOf(const nlohmann::json& rows) {
  std::string out;
  for (const nlohmann::json& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + (row[i].is_null() ? "" : row[i].get<std::string>());
    out += "\r\n";
  }
  return out;
}

Problem Interleaved() {
  Problem p;
  p.P = 2;
  p.v = 2;
  p.M = 4;
  return p;
}

TEST(PytorchLowering, Interleaved1F1BEqualsPytorchsRuntimeOrder) {
  // PyTorch's compute-only lists, read as a schedule on PyTorch's ranks and
  // lowered: each rank's list is the one PyTorch's runtime holds.
  const nlohmann::json e = Entry("ScheduleInterleaved1F1B");
  Result<io::ImportedSchedule> compute = io::ReadPytorchCsv(CsvOf(e["compute"]), "compute.csv");
  ASSERT_TRUE(compute.ok()) << compute.error().Text();
  std::vector<int> stage_to_rank;
  for (int s = 0; s < compute->problem.stages(); ++s) stage_to_rank.push_back(compute->problem.DeviceOf(s));
  ASSERT_EQ(stage_to_rank, e["stage_to_rank"].get<std::vector<int>>());
  ASSERT_EQ(compute->problem.M, e["M"].get<int>());
  Result<CommProgram> program = LowerPytorch(compute->problem, compute->schedule);
  ASSERT_TRUE(program.ok()) << program.error().Text();
  const io::PytorchCsv lowered = io::CsvFromProgram(compute->schedule, *program);
  ASSERT_EQ(lowered.rows.size(), e["comms"].size());
  for (size_t r = 0; r < lowered.rows.size(); ++r) {
    std::vector<std::string> got;
    for (const io::CsvCell& cell : lowered.rows[r]) got.push_back(io::PytorchCellText(cell));
    EXPECT_EQ(got, e["comms"][r].get<std::vector<std::string>>()) << "rank " << r;
  }
}

TEST(PytorchLowering, ExportIsPytorchsComputeCommsCsvByteForByte) {
  // ppsim's own interleaved order (equal to PyTorch's, tests/core) lowered and
  // written as PyTorch's _dump_csv(format="compute_comms") writes it.
  const Problem p = Interleaved();
  Problem q = p;
  Result<Schedule> s = Generate("interleaved", q);
  ASSERT_TRUE(s.ok()) << s.error().Text();
  Result<std::string> csv = io::WritePytorchCommsCsv(p, *s);
  ASSERT_TRUE(csv.ok()) << csv.error().Text();
  EXPECT_EQ(*csv, Entry("ScheduleInterleaved1F1B")["csv_compute_comms"].get<std::string>());
}

TEST(PytorchLowering, PytorchsCommsCsvIsReadCheckedAndWrittenBackByteForByte) {
  const std::string text = Entry("ScheduleInterleaved1F1B")["csv_compute_comms"].get<std::string>();
  Result<io::PytorchCsv> csv = io::ParsePytorchCsv(text, "comms.csv");
  ASSERT_TRUE(csv.ok()) << csv.error().Text();
  EXPECT_EQ(io::FormatPytorchCsv(*csv), text);
  // Its compute actions are ppsim's interleaved order; the comm actions pair up.
  Result<io::ImportedSchedule> imported = io::ScheduleFromPytorchCsv(*csv, "comms.csv");
  ASSERT_TRUE(imported.ok()) << imported.error().Text();
  Problem q = Interleaved();
  EXPECT_EQ(imported->schedule.devices, Generate("interleaved", q)->devices);
}

TEST(PytorchLowering, NoCommBetweenStagesOnOneRank) {
  // ZB-V's turn of the V (stages 1 and 2 on rank 1 at P = 2): no SEND or RECV
  // between them, and each stage's REDUCE_GRAD follows its last backward.
  Problem p;
  p.P = 2;
  p.M = 2;
  p.v = 2;
  p.placement = Placement::kVShape;
  Problem q = p;
  Result<Schedule> s = Generate("zbv", q);
  ASSERT_TRUE(s.ok()) << s.error().Text();
  Result<std::string> csv = io::WritePytorchCommsCsv(p, *s);
  ASSERT_TRUE(csv.ok()) << csv.error().Text();
  EXPECT_EQ(csv->find(",1SEND_F"), std::string::npos) << *csv;  // 1F -> 2F stays on rank 1
  EXPECT_EQ(csv->find(",2RECV_F"), std::string::npos) << *csv;
  EXPECT_NE(csv->find("0SEND_F0"), std::string::npos) << *csv;
  EXPECT_NE(csv->find("2SEND_F0"), std::string::npos) << *csv;  // 2F -> 3F crosses back to rank 0
  EXPECT_NE(csv->find("3REDUCE_GRAD"), std::string::npos) << *csv;
}

TEST(PytorchLowering, AnOrderThatCannotBeLoweredNamesEachRanksWaitingAction) {
  // Each rank waits on an action the other places only after its own:
  // PyTorch's "Malformed compute schedule", here naming what each rank
  // waits to place.
  Result<io::ImportedSchedule> compute = io::ReadPytorchCsv("0F0,0B0,0F1,0B1\r\n1F0,1F1,1B0,1B1\r\n", "x.csv");
  ASSERT_TRUE(compute.ok()) << compute.error().Text();
  Result<CommProgram> lowered = LowerPytorch(compute->problem, compute->schedule);
  ASSERT_FALSE(lowered.ok());
  EXPECT_EQ(lowered.error().code, ErrorCode::kDeadlock);
  EXPECT_NE(lowered.error().message.find("rank 0 waits to place B0@s0; rank 1 waits to place F1@s1"), std::string::npos)
      << lowered.error().message;
}

// A comms file whose SEND and RECV do not pair up, or sit on the wrong rank,
// is refused naming the action, its position and what it lacks.
TEST(PytorchLowering, CommActionsThatDoNotPairUpAreRefused) {
  const struct {
    const char* text;
    ErrorCode code;
    const char* message;
  } cases[] = {
      {"0F0,0SEND_F0,0B0\r\n1F0,1B0\r\n", ErrorCode::kBadSchedule,
       "c.csv:1:5: 0SEND_F0 has no matching 1RECV_F0 on rank 1"},
      {"0F0,0B0\r\n1RECV_F0,1F0,1B0\r\n", ErrorCode::kBadSchedule,
       "c.csv:2:1: 1RECV_F0 has no matching 0SEND_F0 on rank 0"},
      {"0F0,0SEND_F0,0B0\r\n1RECV_F0,1RECV_F0,1F0,1B0\r\n", ErrorCode::kBadSchedule,
       "c.csv:2:10: 1RECV_F0 appears twice (first at 2:1): one transfer is sent and received once"},
      {"0F0,0SEND_F0,1RECV_F0,0B0\r\n1F0,1B0\r\n", ErrorCode::kBadSchedule,
       "c.csv:1:14: 1RECV_F0 is on rank 0, but stage 1 is computed on rank 1"},
      {"0F0,0B0,0REDUCE_GRAD0\r\n", ErrorCode::kParse, "c.csv:1:21: action 0REDUCE_GRAD takes no microbatch number"},
      {"0F0,0B0,1UNSHARD\r\n", ErrorCode::kBadSchedule, "c.csv:1:9: 1UNSHARD names stage 1, which no rank computes"},
      // PyTorch's prefix match reads 2BW0 as 2B with no microbatch.
      {"0F0,2BW0\r\n", ErrorCode::kParse,
       "c.csv:1:6: unknown action type 'BW' (known: F, I, W, B, SEND_F, RECV_F, SEND_B, RECV_B, UNSHARD, RESHARD, "
       "REDUCE_GRAD)"},
  };
  for (const auto& c : cases) {
    Result<io::ImportedSchedule> r = io::ReadPytorchCsv(c.text, "c.csv");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, c.code) << c.text;
    EXPECT_EQ(r.error().Text(), c.message) << c.text;
  }
}

}  // namespace
}  // namespace ppsim

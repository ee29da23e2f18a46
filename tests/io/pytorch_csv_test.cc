// PyTorch's compute-only schedule CSV: reading, writing, round trips, errors.
#include "ppsim/io/pytorch_csv.h"

#include <gtest/gtest.h>

#include "io/conformance_csv.h"
#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

Schedule Generated(const char* name, int P, int M, int v = 1) {
  Problem p;
  p.P = P;
  p.M = M;
  p.v = v;
  Result<Schedule> s = Generate(name, p);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

Error ReadError(const std::string& text) {
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(text, "s.csv");
  EXPECT_FALSE(r.ok()) << "accepted: " << text;
  return r.ok() ? Error{} : r.error();
}

TEST(PytorchCsv, Reads1F1BAndInfersTheShape) {
  const std::string text = "0F0,0F1,0B0,0B1\r\n1F0,1B0,1F1,1B1\r\n";
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(text, "s.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->problem.P, 2);
  EXPECT_EQ(r->problem.v, 1);
  EXPECT_EQ(r->problem.M, 2);
  EXPECT_EQ(r->problem.placement, Placement::kLoop);
  EXPECT_FALSE(r->schedule.split_backward);
  EXPECT_EQ(r->schedule.devices, Generated("1f1b", 2, 2).devices);
  EXPECT_EQ(*io::WritePytorchCsv(r->schedule), text);
}

TEST(PytorchCsv, EveryConformanceFileRoundTripsByteForByte) {
  for (const auto& e : testing::LoadConformance()) {
    SCOPED_TRACE(e.schedule);
    Result<io::PytorchCsv> cells = io::ParsePytorchCsv(e.csv, "c.csv");
    ASSERT_TRUE(cells.ok()) << cells.error().message;
    EXPECT_EQ(io::FormatPytorchCsv(*cells), e.csv);
    Result<io::ImportedSchedule> r = io::ScheduleFromPytorchCsv(*cells, "c.csv");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->problem.P, e.P);
    EXPECT_EQ(r->problem.v, e.v);
    EXPECT_EQ(r->problem.M, e.M);
    for (int s = 0; s < e.P * e.v; ++s) EXPECT_EQ(r->problem.DeviceOf(s), e.stage_to_rank[s]) << "stage " << s;
    // Every order PyTorch produces completes (no deadlock) under ppsim's rules.
    Result<Timeline> t = Place(r->problem, r->schedule);
    EXPECT_TRUE(t.ok()) << t.error().message;
    // Every file comes back byte for byte from the schedule, also
    // DualPipeV's, which mixes full backwards (B) with I and W.
    EXPECT_EQ(*io::WritePytorchCsv(r->schedule), e.csv);
  }
}

TEST(PytorchCsv, ConformanceOrdersMatchPpsimGenerators) {
  const std::pair<const char*, const char*> same[] = {
      {"Schedule1F1B", "1f1b"},
      {"ScheduleGPipe", "gpipe"},
      {"ScheduleInterleaved1F1B", "interleaved"},
      {"ScheduleZBVZeroBubble", "zbv"},
      {"ScheduleDualPipeV", "dualpipev"}};
  for (const auto& e : testing::LoadConformance()) {
    for (const auto& [torch_name, ppsim_name] : same) {
      if (e.schedule != torch_name) continue;
      SCOPED_TRACE(e.schedule);
      Result<io::ImportedSchedule> r = io::ReadPytorchCsv(e.csv, "c.csv");
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_EQ(*io::WritePytorchCsv(Generated(ppsim_name, e.P, e.M, e.v)), e.csv);
    }
  }
}

TEST(PytorchCsv, DualPipeVImportsAsPpsimsDualPipeV) {
  for (const auto& e : testing::LoadConformance()) {
    if (e.schedule != "ScheduleDualPipeV") continue;
    Result<io::ImportedSchedule> r = io::ReadPytorchCsv(e.csv, "dpv.csv");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->schedule.devices, Generated("dualpipev", e.P, e.M, 2).devices);
  }
}

// B next to I/W is one full backward op: no W of its own, B+W long; the
// file comes back byte for byte.
TEST(PytorchCsv, MixedFullAndSplitBackwards) {
  const std::string text = "0F0,0F1,0I0,0W0,(0F2;0B1)OVERLAP_F_B,0B2\r\n";
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(text, "mixed.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Schedule& s = r->schedule;
  EXPECT_TRUE(s.split_backward);
  ASSERT_EQ(s.devices[0].size(), 6u);
  EXPECT_FALSE(s.devices[0][2].full);
  EXPECT_TRUE(s.devices[0][4].full && s.devices[0][4].pair());
  EXPECT_TRUE(s.devices[0][5].full);
  EXPECT_EQ(s.op_count(), 7);  // 3 F, 3 B, one W
  EXPECT_EQ(*io::WritePytorchCsv(s), text);
  Problem p = r->problem;
  p.costs.b = {2};
  p.costs.w = {3};
  Result<Timeline> t = Place(p, s);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const OpId b2 = s.space.Id(OpKind::kB, 2, 0);
  EXPECT_EQ(t->end[b2] - t->Start(b2), 5);  // B + W
  EXPECT_FALSE(t->Has(s.space.Id(OpKind::kW, 2, 0)));
}

TEST(PytorchCsv, DualPipeCannotBeExported) {
  const Result<std::string> csv = io::WritePytorchCsv(Generated("dualpipe", 4, 8, 2));
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.error().code, ErrorCode::kPrecondition);
}

TEST(PytorchCsv, ZbvIsSplitAndVShaped) {
  for (const auto& e : testing::LoadConformance()) {
    if (e.schedule != "ScheduleZBVZeroBubble") continue;
    Result<io::ImportedSchedule> r = io::ReadPytorchCsv(e.csv, "zbv.csv");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r->schedule.split_backward);
    EXPECT_EQ(r->problem.placement, Placement::kVShape);
    EXPECT_EQ(r->schedule.op_count(), 3 * 8 * e.M);
  }
}

TEST(PytorchCsv, FullBackwardInASplitFileIsOneOp) {
  // Rank 0 runs a full backward for microbatch 0, split I/W for microbatch 1.
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv("0F0,0F1,0B0,0I1,0W1\r\n", "m.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->schedule.split_backward);
  std::string order;
  for (const Slot& s : r->schedule.devices[0])
    order += OpName(r->schedule.space.At(s.op)) + (s.full ? "(full)" : "") + " ";
  EXPECT_EQ(order, "F0@s0 F1@s0 B0@s0(full) B1@s0 W1@s0 ");
}

TEST(PytorchCsv, OverlappedPairIsOneSlot) {
  // P = 1, two stages... V-shape needs P devices; use one device holding stages 0 and 1 (v = 2, loop).
  const std::string text = "0F0,1F0,1B0,(0F1;0B0)OVERLAP_F_B,1F1,1B1,0B1\r\n";
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(text, "p.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Slot& pair = r->schedule.devices[0][3];
  ASSERT_TRUE(pair.pair());
  EXPECT_EQ(OpName(r->schedule.space.At(pair.op)), "F1@s0");
  EXPECT_EQ(OpName(r->schedule.space.At(pair.overlapped)), "B0@s0");
  EXPECT_EQ(*io::WritePytorchCsv(r->schedule), text);
}

TEST(PytorchCsv, IdleCellsAreKeptByTheCellsAndDroppedByTheSchedule) {
  const std::string text = "0F0,,0B0,\r\n\"\"\r\n";
  Result<io::PytorchCsv> cells = io::ParsePytorchCsv(text, "i.csv");
  ASSERT_TRUE(cells.ok()) << cells.error().message;
  ASSERT_EQ(cells->rows.size(), 2u);
  EXPECT_EQ(cells->rows[0].size(), 4u);
  EXPECT_TRUE(cells->rows[0][1].actions.empty());
  EXPECT_TRUE(cells->rows[0][3].actions.empty());
  EXPECT_EQ(cells->rows[1].size(), 1u);
  EXPECT_EQ(io::FormatPytorchCsv(*cells), text);
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv("0F0,,0B0\r\n", "i.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->schedule.devices[0].size(), 2u);
}

TEST(PytorchCsv, AcceptsWhatPythonsReaderAccepts) {
  // "\n" line ends, no final newline, quoted cells, spaces PyTorch strips.
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv("\"0F0\", 0F1 ,0B0,0B1\n1F0,1B0,1F1,1B1", "s.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->schedule.devices, Generated("1f1b", 2, 2).devices);
}

TEST(PytorchCsv, WriteThenReadGivesTheSameSchedule) {
  for (auto [name, v] : {std::pair{"gpipe", 1}, {"1f1b", 1}, {"interleaved", 2}, {"looped-bfs", 2}, {"zbv", 2},
                         {"zb1p", 2}, {"dualpipev", 2}}) {
    SCOPED_TRACE(name);
    const Schedule s = Generated(name, 4, 8, v);
    Result<io::ImportedSchedule> r = io::ReadPytorchCsv(*io::WritePytorchCsv(s), "w.csv");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->schedule.devices, s.devices);
    EXPECT_EQ(r->schedule.split_backward, s.split_backward);
    EXPECT_EQ(r->problem.v, v);
    EXPECT_EQ(r->problem.M, 8);
  }
}

TEST(PytorchCsv, ImportedScheduleSimulatesToTheClosedForm) {
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(*io::WritePytorchCsv(Generated("1f1b", 4, 8)), "w.csv");
  ASSERT_TRUE(r.ok());
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->makespan, 2 * (8 + 4 - 1));
}

TEST(PytorchCsvErrors, TrailingJunk) {
  const Error e = ReadError("0F0,0F1x,0B0\r\n");
  EXPECT_EQ(e.code, ErrorCode::kParse);
  EXPECT_EQ(e.message, "s.csv:1:8: unexpected 'x' after action 0F1");
}

TEST(PytorchCsvErrors, CommActionWithoutItsPartner) {
  // A SEND_B is read (the compute_comms format), and must have its RECV_B.
  const Error e = ReadError("0F0,0B0\r\n1F0,1SEND_B0,1B0\r\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.message, "s.csv:2:5: 1SEND_B0 has no matching 0RECV_B0 on rank 0");
}

TEST(PytorchCsvErrors, UnknownActionType) {
  const Error e = ReadError("0F0,0X0\r\n");
  EXPECT_EQ(e.code, ErrorCode::kParse);
  EXPECT_EQ(e.message,
            "s.csv:1:6: unknown action type 'X' (known: F, I, W, B, SEND_F, RECV_F, SEND_B, RECV_B, UNSHARD, "
            "RESHARD, REDUCE_GRAD)");
}

TEST(PytorchCsvErrors, MissingPieces) {
  EXPECT_EQ(ReadError("0F0,0F\r\n").message, "s.csv:1:7: action 0F has no microbatch number");
  EXPECT_EQ(ReadError("F0\r\n").message, "s.csv:1:1: expected an action like 0F0 (stage, type, microbatch), got 'F0'");
  EXPECT_EQ(ReadError("0F0,(0F1;0B0)\r\n").message,
            "s.csv:1:14: an overlapped pair must end in ')OVERLAP_F_B', got ')'");
  EXPECT_EQ(ReadError("(0F1;0F0)OVERLAP_F_B\r\n").message,
            "s.csv:1:1: an OVERLAP_F_B pair needs one forward (F) and one backward (B or I), got '(0F1;0F0)'");
  EXPECT_EQ(ReadError("\"0F0\r\n").message, "s.csv:1:1: quoted cell has no closing '\"'");
}

TEST(PytorchCsvErrors, TooLarge) {
  const Error e = ReadError("0F99999999999\r\n");
  EXPECT_EQ(e.code, ErrorCode::kTooLarge);
  EXPECT_EQ(e.message, "s.csv:1:3: microbatch 9999999... exceeds the limit 1048575");
}

TEST(PytorchCsvErrors, DuplicateNamesBothPositions) {
  const Error e = ReadError("0F0,0F0,0B0\r\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.message, "s.csv:1:5: F0@s0 appears twice (first at 1:1)");
}

TEST(PytorchCsvErrors, MissingOp) {
  const Error e = ReadError("0F0,0F1,0B0\r\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.Text(), "s.csv: B1@s0 is missing (expected on device 0)");
}

TEST(PytorchCsvErrors, StageOnTwoRanks) {
  const Error e = ReadError("0F0,0B0\r\n0F1,0B1\r\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.message, "s.csv:2:1: 0F1 runs stage 0 on rank 1, which rank 0 runs too (PyTorch's _validate_schedule: "
                       "'Rank 1, step 0: Stage 0 is assigned to both rank 1 and rank 0')");
}

// Any placement is read as PyTorch infers it (each stage on the rank whose
// row computes it): here stage 0 on rank 1 and stage 1 on rank 0.
TEST(PytorchCsv, AnyPlacementIsTheCsvsOwnMap) {
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv("1F0,1B0\r\n0F0,0B0\r\n", "s.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->problem.placement, Placement::kMap);
  EXPECT_EQ(r->problem.stage_device, (std::vector<int>{1, 0}));
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->makespan, 4);  // F on rank 1, F on rank 0, then the backwards: one chain of four unit ops
}

// Hanayo's wave over 3 chunks at P = 2 (stages 0..5 on ranks 0 1 1 0 0 1):
// a hop between two stages of one rank costs no latency.
TEST(PytorchCsv, WavePlacement) {
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(
      "0F0,0F1,3F0,3F1,4F0,4F1,4B0,4B1,3B0,3B1,0B0,0B1\r\n1F0,1F1,2F0,2F1,5F0,5F1,5B0,5B1,2B0,2B1,1B0,1B1\r\n",
      "wave.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->problem.stage_device, (std::vector<int>{0, 1, 1, 0, 0, 1}));
  EXPECT_EQ(r->problem.CommBetween(1, 2), 0);
  r->problem.comm = 1;
  EXPECT_EQ(r->problem.CommBetween(2, 3), 1);
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // By hand, unit ops: the forwards reach stage 5 at 10 (hops 0->1, 2->3, 4->5 cost 1; 1->2, 3->4 none),
  // the backwards of both microbatches return to stage 0 by 24.
  EXPECT_EQ(t->makespan, 24);
}

TEST(PytorchCsvErrors, DeadlockIsDiagnosedByPlacement) {
  // Rank 0 runs the backward of microbatch 0 before rank 1 ever gets its forward.
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv("0F0,0B0,0F1,0B1\r\n1F1,1B1,1F0,1B0\r\n", "d.csv");
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(t.error().message, "deadlock: device 0 waits on B0@s1 before B0@s0; device 1 waits on F1@s0 before F1@s1");
}

}  // namespace
}  // namespace ppsim

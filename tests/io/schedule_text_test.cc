// ppsim's plain-text schedule format: parsing, positions in errors, the
// completeness check and the deadlock diagnosis.
#include "ppsim/io/schedule_text.h"

#include <gtest/gtest.h>

#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

Error ReadError(const std::string& text) {
  Result<io::ImportedSchedule> r = io::ReadScheduleText(text, "s.txt");
  EXPECT_FALSE(r.ok()) << "accepted: " << text;
  return r.ok() ? Error{} : r.error();
}

std::string Order(const Schedule& s, int device) {
  std::string out;
  for (const Slot& slot : s.devices[device]) {
    if (!out.empty()) out += ' ';
    out += OpName(s.space.At(slot.op));
    if (slot.pair()) {
      out += '+';
      out += OpName(s.space.At(slot.overlapped));
    }
  }
  return out;
}

TEST(ScheduleText, Reads1F1BWithCommentsAndBlankLines) {
  const std::string text =
      "# 1F1B, P = 2, M = 3\n"
      "\n"
      "F0 F1 B0 F2 B1 B2   # device 0\n"
      "  # a comment-only line is not a device\n"
      "F0 B0 F1 B1 F2 B2\n";
  Result<io::ImportedSchedule> r = io::ReadScheduleText(text, "s.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->problem.P, 2);
  EXPECT_EQ(r->problem.M, 3);
  EXPECT_EQ(r->problem.v, 1);
  EXPECT_EQ(Order(r->schedule, 1), "F0@s1 B0@s1 F1@s1 B1@s1 F2@s1 B2@s1");
  Problem p;
  p.P = 2;
  p.M = 3;
  EXPECT_EQ(r->schedule.devices, Generate("1f1b", p)->devices);
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->makespan, 2 * (3 + 2 - 1));
}

TEST(ScheduleText, ExplicitStagesVShapeSplitAndPairs) {
  // P = 2, V-shape: device 0 holds stages 0 and 3, device 1 holds 1 and 2.
  const std::string text =
      "F0 F1 F0@s3 B0@s3 W0@s3 (F1@s3;B0) B1@s3 W1@s3 W0 B1 W1\n"
      "F0 F0@s2 B0@s2 F1 F1@s2 B0 W0 B1@s2 W0@s2 W1@s2 B1 W1\n";
  Result<io::ImportedSchedule> r = io::ReadScheduleText(text, "v.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->problem.placement, Placement::kVShape);
  EXPECT_EQ(r->problem.v, 2);
  EXPECT_TRUE(r->schedule.split_backward);
  EXPECT_EQ(Order(r->schedule, 0),
            "F0@s0 F1@s0 F0@s3 B0@s3 W0@s3 F1@s3+B0@s0 B1@s3 W1@s3 W0@s0 B1@s0 W1@s0");
  EXPECT_TRUE(Place(r->problem, r->schedule).ok());
}

TEST(ScheduleText, WriteThenReadGivesTheSameSchedule) {
  for (auto [name, v] : {std::pair{"gpipe", 1}, {"1f1b", 1}, {"interleaved", 2}, {"looped-bfs", 3}, {"zbv", 2}, {"dualpipe", 2}, {"dualpipev", 2}}) {
    SCOPED_TRACE(name);
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = v;
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << s.error().message;
    const std::string text = io::WriteScheduleText(p, *s);
    Result<io::ImportedSchedule> r = io::ReadScheduleText(text, "w.txt");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->schedule.devices, s->devices);
    EXPECT_EQ(r->problem.placement, p.placement);
    EXPECT_EQ(io::WriteScheduleText(r->problem, r->schedule), "# w.txt" + text.substr(text.find(':')));
  }
}

TEST(ScheduleTextErrors, SyntaxWithPositions) {
  EXPECT_EQ(ReadError("F0 X1 B0\n").message,
            "s.txt:1:4: expected an op (F, B, W or R and a microbatch, e.g. F3 or B1@s5), got 'X'");
  EXPECT_EQ(ReadError("F0 B0\nF0 Bx\n").message, "s.txt:2:5: expected a microbatch number, got 'x'");
  EXPECT_EQ(ReadError("F0 B0x\n").message, "s.txt:1:6: unexpected 'x' after an op (ops are separated by spaces)");
  EXPECT_EQ(ReadError("F0 B0@3\n").message, "s.txt:1:7: expected 's' and a stage number after '@' (as in F3@s5)");
  EXPECT_EQ(ReadError("F0 (F1;B0 B1\n").message,
            "s.txt:1:11: expected ')' closing the overlapped pair opened at column 4");
  EXPECT_EQ(ReadError("F0 (F1;F0) B0 B1\n").message, "s.txt:1:4: an overlapped pair needs one F and one B, got F1@s0 and F0@s0");
}

TEST(ScheduleTextErrors, MissingDuplicateUnknown) {
  Error e = ReadError("F0 F1 B0\nF0 B0 F1 B1\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.Text(), "s.txt: B1@s0 is missing (expected on device 0)");
  e = ReadError("F0 F1 B0 B1 F1\nF0 B0 F1 B1\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.message, "s.txt:1:13: F1@s0 appears twice (first at 1:4)");
  e = ReadError("F0 B0 F1@s1 B1\nF0 B0\n");  // stage 1 belongs to device 1
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.message, "s.txt:2:1: F0@s1 puts stage 1 on device 1, but F1@s1 at 1:7 put it on device 0");
}

TEST(ScheduleTextErrors, Empty) {
  const Error e = ReadError("# nothing here\n\n");
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
  EXPECT_EQ(e.message, "s.txt: no ops (one line per device expected)");
}

TEST(ScheduleTextErrors, DeadlockNamesTheWaitingOps) {
  Result<io::ImportedSchedule> r = io::ReadScheduleText("F0 B0 F1 B1\nF1 B1 F0 B0\n", "d.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(t.error().message, "deadlock: device 0 waits on B0@s1 before B0@s0; device 1 waits on F1@s0 before F1@s1");
}

}  // namespace
}  // namespace ppsim

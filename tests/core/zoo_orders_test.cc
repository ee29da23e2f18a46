// Facts about the zoo's orders and preconditions a user relies on.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Problem Sized(int P, int M, int v = 1) {
  Problem p;
  p.P = P;
  p.M = M;
  p.v = v;
  return p;
}

std::string Order(const Schedule& s, int device) {
  std::string out;
  for (const Slot& slot : s.devices[device]) {
    out += out.empty() ? "" : " ";
    out += slot.pair() ? "(" + OpName(s.space.At(slot.op)) + ";" + OpName(s.space.At(slot.overlapped)) + ")"
                       : OpName(s.space.At(slot.op));
  }
  return out;
}

TEST(ZooOrders, ZBH1IsZB1PWithOneChunk) {
  for (int P = 1; P <= 8; ++P)
    for (int M = 1; M <= 3 * P; ++M) {
      Problem a = Sized(P, M), b = Sized(P, M);
      Result<Schedule> h1 = Generate("zb-h1", a), zb1p = Generate("zb1p", b);
      if (!zb1p.ok()) continue;  // M not divisible by its rounds
      ASSERT_TRUE(h1.ok());
      for (int d = 0; d < P; ++d) EXPECT_EQ(Order(*h1, d), Order(*zb1p, d)) << "P=" << P << " M=" << M << " d=" << d;
    }
}

// Device d holds its first d W back, so every device has P microbatches in flight.
TEST(ZooOrders, ZBH1DelaysWByDeviceIndex) {
  Problem p = Sized(4, 4);
  Result<Schedule> s = Generate("zb-h1", p);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Order(*s, 0), "F0@s0 F1@s0 F2@s0 F3@s0 B0@s0 W0@s0 B1@s0 W1@s0 B2@s0 W2@s0 B3@s0 W3@s0");
  EXPECT_EQ(Order(*s, 3), "F0@s3 B0@s3 F1@s3 B1@s3 F2@s3 B2@s3 F3@s3 B3@s3 W0@s3 W1@s3 W2@s3 W3@s3");
}

TEST(ZooOrders, ZBH2WarmsUpWith2PMinus1Forwards) {
  Problem p = Sized(4, 10);
  Result<Schedule> s = Generate("zb-h2", p);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Order(*s, 0).substr(0, 41), "F0@s0 F1@s0 F2@s0 F3@s0 F4@s0 F5@s0 F6@s0");
  EXPECT_EQ(Order(*s, 0).substr(42, 11), "B0@s0 W0@s0");
}

// DualPipe: device r and its mirror P-1-r run the same steps, each starting
// with the direction that enters the pipeline at its end.
TEST(ZooOrders, DualPipeMirrorsItsHalves) {
  Problem p = Sized(4, 8);
  Result<Schedule> s = Generate("dualpipe", p);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(p.placement, Placement::kDualPipe);
  EXPECT_EQ(Order(*s, 0).substr(0, 41), "F0@s0 F1@s0 F2@s0 F4@s7 B4@s7 W4@s7 F5@s7");
  EXPECT_EQ(Order(*s, 3).substr(0, 41), "F4@s4 F5@s4 F6@s4 F0@s3 B0@s3 W0@s3 F1@s3");
  Result<Timeline> t = Simulate("dualpipe", Sized(4, 8));
  ASSERT_TRUE(t.ok()) << t.error().message;
  // Two copies of the model: microbatches 0-3 go down stages 0-3, 4-7 go up stages 4-7.
  const OpSpace& space = t->schedule.space;
  EXPECT_TRUE(t->Has(space.Id(OpKind::kF, 3, 3)));
  EXPECT_FALSE(t->Has(space.Id(OpKind::kF, 3, 4)));
  EXPECT_TRUE(t->Has(space.Id(OpKind::kF, 4, 4)));
  EXPECT_EQ(t->Start(space.Id(OpKind::kF, 4, 4)), 0);  // device 3 starts the up direction at once
}

TEST(ZooOrders, OverlappedPairsShareStartEndAndId) {
  Result<Timeline> t = Simulate("dualpipev", Sized(4, 10));
  ASSERT_TRUE(t.ok());
  int pairs = 0;
  const auto ops = t->Ops();
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    if (ops[i].overlap < 0 || ops[i + 1].overlap != ops[i].overlap) continue;
    EXPECT_EQ(ops[i].start, ops[i + 1].start);
    EXPECT_EQ(ops[i].end, ops[i + 1].end);
    EXPECT_EQ(ops[i].kind, OpKind::kF);
    EXPECT_EQ(ops[i + 1].kind, OpKind::kB);
    ++pairs;
  }
  EXPECT_GT(pairs, 20);
}

TEST(ZooPreconditions, ClearMessages) {
  struct Case {
    const char* name;
    int P, M, v;
    ErrorCode code;
    const char* says;
  };
  const Case cases[] = {
      {"dualpipe", 3, 12, 1, ErrorCode::kPrecondition, "even number of devices"},
      {"dualpipe", 4, 6, 1, ErrorCode::kPrecondition, "even M ≥ 2P"},
      {"dualpipe", 4, 9, 1, ErrorCode::kPrecondition, "got M = 9"},
      {"dualpipev", 4, 7, 1, ErrorCode::kPrecondition, "M ≥ 2P"},
      {"zbv", 4, 8, 3, ErrorCode::kPrecondition, "exactly 2 chunk(s)"},
      {"zb-h1", 4, 8, 2, ErrorCode::kPrecondition, "exactly 1 chunk(s)"},
      {"zb1p", 4, 9, 2, ErrorCode::kPrecondition, "zb1p needs M divisible"},
  };
  for (const Case& c : cases) {
    Problem p = Sized(c.P, c.M, c.v);
    Result<Schedule> s = Generate(c.name, p);
    ASSERT_FALSE(s.ok()) << c.name;
    EXPECT_EQ(s.error().code, c.code) << c.name;
    EXPECT_NE(s.error().message.find(c.says), std::string::npos) << c.name << ": " << s.error().message;
  }
}

}  // namespace
}  // namespace ppsim

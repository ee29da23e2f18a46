// Bad input gets a one-line error naming the field (docs/reliability.md).
#include <gtest/gtest.h>

#include "ppsim/cost_spec.h"
#include "ppsim/generators.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

std::string CostError(const char* spec) {
  Costs c;
  return ApplyCostSpec(spec, c).Text();
}

TEST(CostSpec, ParsesUniformAndPerStage) {
  Costs c;
  ASSERT_EQ(ApplyCostSpec("F=1,B=2,W=3", c).code, ErrorCode::kOk);
  EXPECT_EQ(c.f, std::vector<Tick>{1});
  EXPECT_EQ(c.b, std::vector<Tick>{2});
  EXPECT_EQ(c.w, std::vector<Tick>{3});
  ASSERT_EQ(ApplyCostSpec("F=3:1:1:2", c).code, ErrorCode::kOk);
  EXPECT_EQ(c.f, (std::vector<Tick>{3, 1, 1, 2}));
}

TEST(CostSpec, RejectsBadValuesNamingThem) {
  EXPECT_EQ(CostError("F=0"), "costs: 'F=0': costs.F must be ≥ 1, got 0");
  EXPECT_EQ(CostError("F=-2"), "costs: 'F=-2': costs.F must be ≥ 1, got -2");
  EXPECT_EQ(CostError("F=x"), "costs: 'F=x': costs.F: 'x' is not a whole number or a list of them");
  EXPECT_EQ(CostError("F=99999999999999999999"),
            "costs: 'F=99999999999999999999': costs.F: 99999999999999999999 exceeds the limit 1099511627776");
  EXPECT_EQ(CostError("Q=1"), "costs: 'Q=1': unknown kind 'Q' (known: F, B, W, FB, BW)");
  EXPECT_EQ(CostError("F"), "costs: 'F': expected KIND=VALUE, e.g. F=1,B=2");
}

TEST(Problem, RejectsSizesAndNames) {
  Problem p;
  p.P = 0;
  EXPECT_EQ(ValidateProblem(p).message, "P must be ≥ 1, got 0");
  p.P = 4;
  p.M = kMaxMicrobatches;
  p.v = 64;
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kTooLarge);
  p = Problem();
  p.costs.f = {1, 2, 3};
  EXPECT_EQ(ValidateProblem(p).message, "cost F: 3 per-stage values given but there are 4 stages (give 1 or 4)");
  Result<Timeline> t = Simulate("zero-bubble-please", Problem());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kUnknownName);
  EXPECT_NE(t.error().message.find("known: gpipe, 1f1b, interleaved"), std::string::npos);
}

TEST(Problem, SchedulePreconditionsAreExplained) {
  Problem p;
  p.v = 2;
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(t.error().Text(), "chunks: 1f1b runs exactly 1 chunk(s) per device; got 2");
  p.P = 4;
  p.M = 6;  // 6 is not a multiple of the one round's size... it is: rounds = 1
  EXPECT_TRUE(Simulate("interleaved", p).ok());
  p.M = 10;  // rounds = 2, 10 % 2 == 0 -> accepted; 9: rounds 2, 9 % 2 != 0
  p.M = 9;
  t = Simulate("interleaved", p);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kPrecondition);
  EXPECT_NE(t.error().message.find("interleaved needs M divisible"), std::string::npos);
}

}  // namespace
}  // namespace ppsim

// Limits that keep core's arithmetic inside int64 and its recursion bounded
// (docs/reliability.md): checked arithmetic, the work bound of a Problem,
// validate on hostile timelines, the claim parser's depth limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <limits>
#include <string>

#include "ppsim/checked.h"
#include "ppsim/claims.h"
#include "ppsim/problem.h"
#include "ppsim/validate.h"

namespace ppsim {
namespace {

constexpr Tick kMax = std::numeric_limits<Tick>::max();
constexpr Tick kMin = std::numeric_limits<Tick>::min();

TEST(Checked, ExactOrNothing) {
  EXPECT_EQ(CheckedMul<Tick>(Tick{1} << 31, Tick{1} << 31), Tick{1} << 62);
  EXPECT_EQ(CheckedMul<Tick>(Tick{1} << 32, Tick{1} << 31), std::nullopt);
  EXPECT_EQ(CheckedAdd<Tick>(kMax, 1), std::nullopt);
  EXPECT_EQ(CheckedSub<Tick>(kMin, 1), std::nullopt);
  EXPECT_EQ(CheckedSub<Tick>(kMax, kMin), std::nullopt);
}

TEST(ProblemLimits, WorkThatCouldOverflowPTimesMakespanIsRefused) {
  Problem p;
  p.P = 4096;
  p.M = 1;
  p.costs.f = {kMaxCost};
  p.costs.bw = {kMaxCost};
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kTooLarge);
  p.costs.f = {1};
  p.costs.bw = {1};
  p.comm = kMaxCost;  // latency counts too
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kTooLarge);
  p.comm = 1000;
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kOk);
}

TEST(ProblemLimits, TheLargestAllowedSizeWithUnitCostsIsFine) {
  Problem p;
  p.P = 4096;
  p.M = 16'000;
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kOk);
}

TimelineToCheck OneOp(Tick start, Tick end) {
  TimelineToCheck t;
  t.ops.push_back({0, 0, OpKind::kF, 0, start, end, -1});
  return t;
}

TEST(ValidateLimits, NegativeOrHugeShapesAreOneViolation) {
  for (auto [P, S, M] : {std::tuple{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {2'147'483'647, 0, 0}, {0, 60'000'000, 1}}) {
    TimelineToCheck t = OneOp(0, 1);
    t.P = P;
    t.S = S;
    t.M = M;
    const std::vector<Violation> v = ValidateTimeline(t);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].rule, "too-large") << v[0].message;
  }
}

TEST(ValidateLimits, ManyMissingOpsAreCountedNotListed) {
  TimelineToCheck t = OneOp(0, 1);
  t.S = 1000;
  t.M = 1000;  // 2·10^6 − 1 ops missing
  const std::vector<Violation> v = ValidateTimeline(t);
  ASSERT_EQ(v.size(), 1001u);
  EXPECT_EQ(v.back().message, "... and 1998999 more ops are missing");
}

TEST(ValidateLimits, TicksNearTheEndsOfInt64AreViolationsNotOverflow) {
  TimelineToCheck t;
  t.P = 2;
  t.comm = kMax;
  t.ops = {{0, 0, OpKind::kF, 0, kMin, kMax, -1},
           {1, 1, OpKind::kF, 0, kMax - 1, kMax, -1},
           {1, 1, OpKind::kB, 0, kMin, kMin + 1, -1},
           {0, 0, OpKind::kB, 0, 0, kMax, -1}};
  const std::vector<Violation> v = ValidateTimeline(t);
  EXPECT_FALSE(v.empty());
  bool duration = false;
  for (const Violation& x : v) duration = duration || x.rule == "duration";
  EXPECT_TRUE(duration);  // [min, max) lasts longer than int64 can say
}

TEST(ClaimLimits, NestingBeyond256IsAParseErrorNotAStackOverflow) {
  for (const std::string open : {"(", "not ", "-", "floor("}) {
    std::string deep;
    for (int i = 0; i < 10'000 && deep.size() < kMaxClaimBytes - 20'000; ++i) deep += open;
    std::string claim = deep + "P";
    if (open.back() == '(') claim += std::string(std::count(deep.begin(), deep.end(), '('), ')');
    claim += " == 1";
    Result<Claim> c = ParseClaim(claim);
    ASSERT_FALSE(c.ok()) << open;
    EXPECT_EQ(c.error().code, ErrorCode::kParse);
    EXPECT_NE(c.error().message.find("nests deeper than 256 levels"), std::string::npos) << c.error().message;
  }
}

TEST(ClaimLimits, NestingJustBelowTheLimitParses) {
  const std::string claim = std::string(250, '(') + "P" + std::string(250, ')') + " == 1";
  EXPECT_TRUE(ParseClaim(claim).ok());
}

TEST(ClaimLimits, A100000TermClaimIsRefusedByItsLength) {
  std::string claim;
  for (int i = 0; i < 100'000; ++i) claim += "P+";
  claim += "P > 0";
  Result<Claim> c = ParseClaim(claim);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().Text(), "column 1: the claim is 200005 bytes long, over the limit 65536");
}

}  // namespace
}  // namespace ppsim

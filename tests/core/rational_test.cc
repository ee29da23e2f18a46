// Exact arithmetic: the property claims are decided by.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "ppsim/rational.h"

namespace ppsim {
namespace {

Rational Q(std::int64_t n, std::int64_t d) { return *Rational::Of(n, d); }

TEST(Rational, ReducesAndKeepsTheSignOnTheNumerator) {
  EXPECT_EQ(Q(6, 4), Q(3, 2));
  EXPECT_EQ(Q(3, -6).num(), -1);
  EXPECT_EQ(Q(3, -6).den(), 2);
  EXPECT_FALSE(Rational::Of(1, 0).has_value());
}

TEST(Rational, ArithmeticIsExactWhereDoublesAreNot) {
  // 0.1 + 0.2 == 0.3 exactly.
  EXPECT_EQ(*Q(1, 10).Add(Q(2, 10)), Q(3, 10));
  EXPECT_EQ(*Q(1, 3).Mul(3), Rational(1));
  EXPECT_EQ(*Q(3, 4).Div(Q(3, 8)), Rational(2));
  EXPECT_EQ(*Q(1, 6).Sub(Q(1, 3)), Q(-1, 6));
  // 2^53 + 1 and 2^53 are the same double but different rationals.
  const std::int64_t big = (std::int64_t{1} << 53);
  EXPECT_LT(Rational(big), Rational(big + 1));
  EXPECT_LT(Q(big, big + 1), Q(big + 1, big + 2));
}

TEST(Rational, OverflowIsReportedNotWrapped) {
  const Rational max = std::numeric_limits<std::int64_t>::max();
  EXPECT_FALSE(max.Add(1).has_value());
  EXPECT_FALSE(max.Mul(2).has_value());
  EXPECT_FALSE(Rational(1).Div(0).has_value());
  // Large intermediates that reduce back into range are fine.
  EXPECT_EQ(*Q(max.num(), 3).Mul(3), max);
}

TEST(Rational, PrintsIntegersDecimalsAndFractions) {
  EXPECT_EQ(Rational(18).ToDisplay(), "18");
  EXPECT_EQ(Q(1, 2).ToDisplay(), "0.5");
  EXPECT_EQ(Q(5, 4).ToDisplay(), "1.25");
  EXPECT_EQ(Q(-3, 8).ToDisplay(), "-0.375");
  EXPECT_EQ(Q(1, 3).ToDisplay(), "1/3");
  EXPECT_EQ(Q(1, 3).ToString(), "1/3");
  EXPECT_EQ(Q(1, 2).ToString(), "1/2");
}

}  // namespace
}  // namespace ppsim

// the seed's canonical example (docs/semantics.md): unit costs, c = 0, P = 4, M = 6.
#include <gtest/gtest.h>

#include "ppsim/metrics.h"
#include "ppsim/rational.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Metrics SimulateAndMeasure(const char* schedule, int P, int M) {
  Problem p;
  p.P = P;
  p.M = M;
  Result<Timeline> t = Simulate(schedule, p);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return Measure(*t);
}

TEST(Canonical, GPipeP4M6) {
  Metrics m = SimulateAndMeasure("gpipe", 4, 6);
  EXPECT_EQ(m.makespan, 18);
  EXPECT_EQ(m.idle, 24);
  EXPECT_EQ(m.busy, 48);
  EXPECT_EQ(Rational::Of(m.idle, m.busy), Rational::Of(1, 2));  // bubble_ratio, exactly
  EXPECT_EQ(m.activations.peak, 23);
}

TEST(Canonical, OneFOneBP4M6) {
  Metrics m = SimulateAndMeasure("1f1b", 4, 6);
  EXPECT_EQ(m.makespan, 18);
  EXPECT_EQ(m.idle, 24);
  EXPECT_EQ(Rational::Of(m.idle, m.busy), Rational::Of(1, 2));  // bubble_ratio, exactly
  EXPECT_EQ(m.activations.peak, 9);
}

}  // namespace
}  // namespace ppsim

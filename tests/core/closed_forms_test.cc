// The published closed forms, over grids of sizes and costs (conformance/README.md).
#include <gtest/gtest.h>

#include "ppsim/closed_forms.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Timeline MustSimulate(const std::string& name, const Problem& p) {
  Result<Timeline> t = Simulate(name, p);
  EXPECT_TRUE(t.ok()) << name << ": " << t.error().message;
  return std::move(*t);
}

TEST(ClosedForms, GPipeAnd1F1BFinishTogetherWithBubbleRatioPMinus1OverM) {
  for (int P = 1; P <= 8; ++P)
    for (int M = 1; M <= 16; ++M)
      for (Tick F : {1, 2, 3})
        for (Tick B : {1, 2, 5}) {
          Problem p;
          p.P = P;
          p.M = M;
          p.costs.f = {F};
          p.costs.bw = {B};
          const Metrics g = Measure(MustSimulate("gpipe", p));
          const Metrics o = Measure(MustSimulate("1f1b", p));
          SCOPED_TRACE("P=" + std::to_string(P) + " M=" + std::to_string(M) + " F=" + std::to_string(F) +
                       " B=" + std::to_string(B));
          EXPECT_EQ(g.makespan, (M + P - 1) * (F + B));
          EXPECT_EQ(o.makespan, g.makespan);
          EXPECT_EQ(o.idle, g.idle);
          EXPECT_EQ(Rational::Of(g.idle, g.busy), Rational::Of(P - 1, M));  // exact, no floating point
        }
}

TEST(ClosedForms, PeakActivationsPerDevice) {
  for (HoldMode hold : {HoldMode::kHeld, HoldMode::kResident})
    for (int P = 1; P <= 8; ++P)
      for (int M = 1; M <= 16; ++M) {
        Problem p;
        p.P = P;
        p.M = M;
        p.hold = hold;
        p.costs.bw = {2};
        for (const char* name : {"gpipe", "1f1b"}) {
          const Timeline t = MustSimulate(name, p);
          const Prediction pred = Predict(name, t.problem);
          ASSERT_TRUE(pred.peak_per_device.has_value());
          EXPECT_EQ(Measure(t).activations.peak_per_device, *pred.peak_per_device)
              << name << " P=" << P << " M=" << M << " hold=" << HoldModeName(hold);
        }
      }
}

TEST(ClosedForms, OneFOneBResidentPeakIsPMinusD) {
  Problem p;
  p.P = 6;
  p.M = 24;
  p.hold = HoldMode::kResident;
  const Metrics m = Measure(MustSimulate("1f1b", p));
  EXPECT_EQ(m.activations.peak_per_device, (std::vector<std::int64_t>{6, 5, 4, 3, 2, 1}));
}

TEST(ClosedForms, InterleavedBubbleShrinksByV) {
  for (int P = 2; P <= 6; ++P)
    for (int v = 1; v <= 4; ++v)
      for (int M = P; M <= 4 * P; M += P) {
        Problem p;
        p.P = P;
        p.M = M;
        p.v = v;
        const Metrics m = Measure(MustSimulate("interleaved", p));
        SCOPED_TRACE("P=" + std::to_string(P) + " v=" + std::to_string(v) + " M=" + std::to_string(M));
        EXPECT_EQ(Rational::Of(m.idle, m.busy), Rational::Of(P - 1, std::int64_t{v} * M));
        EXPECT_EQ(m.makespan, (std::int64_t{v} * M + P - 1) * 2);
      }
}

TEST(ClosedForms, InterleavedWithChunkCostStageOverVBeats1F1B) {
  // Same model: a stage costs F=4, B=8; costs are per stage (the default
  // basis), so interleaved's v=2 chunks cost F=2, B=4 each without being told.
  Problem one;
  one.P = 4;
  one.M = 8;
  one.costs.f = {4};
  one.costs.bw = {8};
  Problem two = one;
  two.v = 2;
  const Timeline chunked = MustSimulate("interleaved", two);
  EXPECT_EQ(chunked.problem.costs.f, std::vector<Tick>{2});
  EXPECT_EQ(chunked.problem.costs.b, std::vector<Tick>{4});
  const Metrics a = Measure(MustSimulate("1f1b", one));
  const Metrics b = Measure(chunked);
  EXPECT_EQ(a.busy, b.busy);
  EXPECT_EQ(a.idle, 2 * b.idle);  // the bubble shrinks by v
}

}  // namespace
}  // namespace ppsim

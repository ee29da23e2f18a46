// One model across runs: costs per stage, chunks at 1/v, ticks rescaled.
#include <gtest/gtest.h>

#include "ppsim/claims.h"
#include "ppsim/cost_scale.h"
#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Problem Pm(int P, int M) {
  Problem p;
  p.P = P;
  p.M = M;
  return p;
}

// 1F1B and interleaved v = 2 on one model: the common scale is 2 ticks per
// unit, both do the same work and interleaving halves the bubble.
TEST(CostScale, OneFOneBAndInterleavedShareOneTick) {
  std::vector<std::string> names{"1f1b", "interleaved"};
  std::vector<Problem> problems{Pm(4, 8), Pm(4, 8)};
  problems[1].v = 2;
  ASSERT_EQ(ScaleRuns(names, problems).code, ErrorCode::kOk);
  EXPECT_EQ(problems[0].ticks_per_unit, 2);
  EXPECT_EQ(problems[1].ticks_per_unit, 2);
  EXPECT_EQ(problems[0].costs.f, std::vector<Tick>{2});  // a whole stage: 2 ticks
  EXPECT_EQ(problems[1].costs.f, std::vector<Tick>{1});  // a half-stage chunk: 1 tick
  const Metrics a = Measure(*Simulate(names[0], problems[0]));
  const Metrics b = Measure(*Simulate(names[1], problems[1]));
  EXPECT_EQ(a.busy, 128);
  EXPECT_EQ(b.busy, 128);
  EXPECT_EQ(a.makespan, 44);  // 2·(M+P-1)
  EXPECT_EQ(a.idle, 48);
  EXPECT_EQ(b.idle, 24);  // halved
  EXPECT_EQ(IdleSlotsText(a, 4), "idle 48 of 176 slots (27%)");
}

// The smallest scale: costs that already divide by v need none.
TEST(CostScale, NoRescaleWhenEveryCostDividesByTheChunks) {
  Problem p = Pm(4, 8);
  p.v = 2;
  p.costs.f = {2};
  p.costs.b = {4};
  ASSERT_EQ(ResolveRun("interleaved", p).code, ErrorCode::kOk);
  EXPECT_EQ(*TicksPerUnit({p}, {false}), 1);  // interleaved has no W: W = 1 does not count
  EXPECT_EQ(*TicksPerUnit({p}), 2);           // a split schedule's W = 1 would
  ASSERT_EQ(ScaleCosts(p, 1, false).code, ErrorCode::kOk);
  EXPECT_EQ(p.costs.f, std::vector<Tick>{1});
  EXPECT_EQ(p.costs.b, std::vector<Tick>{2});
  EXPECT_EQ(TickScaleText(p), "1 tick = 1 stage cost unit");
}

// A per-stage list of P values is per stage of the model: each of its
// chunks costs its share; comm is a time, scaled but not divided.
TEST(CostScale, PerModelStageListIsCutIntoChunks) {
  Problem p = Pm(2, 4);
  p.v = 2;
  p.costs.f = {3, 1};
  p.comm = 1;
  ASSERT_EQ(ResolveRun("interleaved", p).code, ErrorCode::kOk);
  EXPECT_EQ(*TicksPerUnit({p}), 2);
  ASSERT_EQ(ScaleCosts(p, 2).code, ErrorCode::kOk);
  // Virtual stages 0,1 are model stage 0 (3 → 3/2 each), 2,3 model stage 1.
  EXPECT_EQ(p.costs.f, (std::vector<Tick>{3, 3, 1, 1}));
  EXPECT_EQ(p.comm, 2);
  EXPECT_EQ(TickScaleText(p), "1 tick = 1/2 stage cost unit");
}

// --cost-per chunk: the old meaning, every op as given.
TEST(CostScale, ChunkBasisKeepsCostsAsGiven) {
  Problem p = Pm(4, 8);
  p.v = 2;
  p.cost_basis = CostBasis::kChunk;
  Result<Timeline> t = Simulate("interleaved", p);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->problem.ticks_per_unit, 1);
  EXPECT_EQ(t->problem.costs.f, std::vector<Tick>{1});
  EXPECT_EQ(Measure(*t).busy, 128);  // 2·v·P·M chunk ops of 1 tick
  Result<Timeline> g = Simulate("1f1b", [&] { Problem q = Pm(4, 8); q.cost_basis = CostBasis::kChunk; return q; }());
  EXPECT_EQ(Measure(*g).busy, 64);  // not the same work: the old, per-chunk meaning
}

// DualPipe's two stages per device are two whole stages: no division.
TEST(CostScale, DualPipeStagesAreWhole) {
  Problem p = Pm(4, 8);
  ASSERT_EQ(ResolveRun("dualpipe", p).code, ErrorCode::kOk);
  EXPECT_EQ(ChunksPerStage(p), 1);
  EXPECT_EQ(*TicksPerUnit({p}), 1);
  Problem v = Pm(4, 8);
  ASSERT_EQ(ResolveRun("dualpipev", v).code, ErrorCode::kOk);
  EXPECT_EQ(ChunksPerStage(v), 2);
}

TEST(CostScale, OverflowingScaleIsRefused) {
  // An odd cost needs 2 ticks a unit for interleaved's half chunks; 1F1B's
  // whole stage then takes twice the limit.
  std::vector<Problem> problems{Pm(4, 8), Pm(4, 8)};
  problems[1].v = 2;
  for (Problem& p : problems) p.costs.f = {kMaxCost - 1};
  int failed = -1;
  Error e = ScaleRuns({"1f1b", "interleaved"}, problems, &failed);
  EXPECT_EQ(e.code, ErrorCode::kTooLarge);
  EXPECT_EQ(failed, 0);
  EXPECT_NE(e.message.find("cost F"), std::string::npos) << e.message;
}

// peak() counts whole-stage sets, exactly; peak_sets() the raw chunk sets.
RunResult Simulated(const std::string& name, const std::string& schedule, Problem p) {
  RunResult r;
  r.name = name;
  r.timeline = *Simulate(schedule, p);
  r.metrics = Measure(r.timeline);
  return r;
}

Rational Eval(const std::string& expr, const std::vector<RunResult>& runs) {
  Result<Claim> c = ParseExpression(expr);
  EXPECT_TRUE(c.ok()) << expr;
  Result<Evaluation> e = Evaluate(*c, runs, {});
  EXPECT_TRUE(e.ok()) << expr;
  return e->value.number;
}

TEST(PeakClaims, StageSetsAreExactRationals) {
  Problem p = Pm(4, 8);
  p.v = 2;
  std::vector<RunResult> runs{Simulated("I", "interleaved", p), Simulated("Z", "zbv", Pm(4, 8)),
                              Simulated("D", "dualpipe", Pm(4, 8)), Simulated("A", "1f1b", Pm(4, 8))};
  EXPECT_EQ(Eval("peak_sets(I)", runs), Rational(runs[0].metrics.activations.peak));
  EXPECT_EQ(Eval("peak(I)", runs), *Rational::Of(runs[0].metrics.activations.peak, 2));
  EXPECT_EQ(Eval("peak_sets(I)", runs), 28);
  EXPECT_EQ(Eval("peak(I)", runs), 14);  // 28 half-stage sets
  EXPECT_EQ(Eval("peak(Z)", runs), *Rational::Of(runs[1].metrics.activations.peak, 2));
  EXPECT_EQ(Eval("peak(Z, 0)", runs), *Rational::Of(runs[1].metrics.activations.peak_per_device[0], 2));
  EXPECT_EQ(Eval("peak(D)", runs), Rational(runs[2].metrics.activations.peak));  // whole stages
  EXPECT_EQ(Eval("peak(A)", runs), 9);
}

// A list of P values (one per stage of the model) is valid for a V-shape
// run before scaling, and its work bound counts each model stage v times
// (it once read past the list's end and refused the problem as too large).
TEST(CostScale, PerModelStageListOnAVShapeRunIsValidAndScaled) {
  Problem p = Pm(4, 8);
  p.v = 2;
  p.placement = Placement::kVShape;
  p.costs.f = {3, 1, 1, 2};
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kOk) << ValidateProblem(p).message;
  Result<Timeline> t = Simulate("dualpipev", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // Stage 0 of the model (F = 3) is cut into virtual stages 0 and 1: 3 ticks each at 2 ticks per unit.
  EXPECT_EQ(t->problem.ticks_per_unit, 2);
  EXPECT_EQ(t->problem.costs.f[0], 3);
  EXPECT_EQ(t->problem.costs.f[1], 3);
  EXPECT_EQ(t->problem.costs.f[6], 2);  // model stage 3 (F = 2): 1 unit = 2 ticks
}

}  // namespace
}  // namespace ppsim

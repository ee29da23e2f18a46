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
  p.costs.b = {3};
  p.costs.w = {1};
  ASSERT_EQ(ResolveRun("interleaved", p).code, ErrorCode::kOk);
  EXPECT_EQ(*TicksPerUnit({p}, {false}), 1);  // interleaved runs B + W = 4 as one op: 2 per chunk
  EXPECT_EQ(*TicksPerUnit({p}), 2);           // a split schedule's B = 3 and W = 1 would need halves
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
  EXPECT_EQ(*TicksPerUnit({p}, {false}), 2);
  EXPECT_EQ(*TicksPerUnit({p}), 4);  // split, the default B = W = 1/2 of a unit: 1/4 per chunk
  ASSERT_EQ(ScaleCosts(p, 2, false).code, ErrorCode::kOk);
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
  p.costs.bw = {2};  // B = W = 1
  ASSERT_EQ(ResolveRun("dualpipe", p).code, ErrorCode::kOk);
  EXPECT_EQ(ChunksPerStage(p), 1);
  EXPECT_EQ(*TicksPerUnit({p}), 1);
  p.costs.bw.clear();  // the default: B = W = 1/2
  EXPECT_EQ(*TicksPerUnit({p}), 2);
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
ppsim::Run Simulated(const std::string& name, const std::string& schedule, Problem p) {
  return Measured(name, *Simulate(schedule, p));
}

Rational Eval(const std::string& expr, const std::vector<ppsim::Run>& runs) {
  Result<Claim> c = ParseExpression(expr);
  EXPECT_TRUE(c.ok()) << expr;
  Result<Evaluation> e = Evaluate(*c, runs, {});
  EXPECT_TRUE(e.ok()) << expr;
  return e->value.number;
}

TEST(PeakClaims, StageSetsAreExactRationals) {
  Problem p = Pm(4, 8);
  p.v = 2;
  std::vector<ppsim::Run> runs{Simulated("I", "interleaved", p), Simulated("Z", "zbv", Pm(4, 8)),
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
  p.costs.bw = {2};  // B = W = 1: halves of a chunk
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kOk) << ValidateProblem(p).message;
  Result<Timeline> t = Simulate("dualpipev", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // Stage 0 of the model (F = 3) is cut into virtual stages 0 and 1: 3 ticks each at 2 ticks per unit.
  EXPECT_EQ(t->problem.ticks_per_unit, 2);
  EXPECT_EQ(t->problem.costs.f[0], 3);
  EXPECT_EQ(t->problem.costs.f[1], 3);
  EXPECT_EQ(t->problem.costs.f[6], 2);  // model stage 3 (F = 2): 1 unit = 2 ticks
}


// One model of work: a schedule that does not split the backward runs it
// whole, B + W, so 1F1B and the zero-bubble schedules do the same work, and
// at the default (F = 1, a whole backward of 1: B = W = 1/2) zero bubble
// finishes first.
TEST(OneModel, EveryScheduleDoesTheSameWork) {
  std::vector<std::string> names{"1f1b", "zb-h1", "zbv", "interleaved", "dualpipev"};
  for (bool unit : {false, true}) {
    std::vector<Problem> problems(names.size(), Pm(4, 8));
    if (unit)
      for (Problem& p : problems) p.costs.f = {1}, p.costs.b = {1}, p.costs.w = {1};
    problems[3].v = 2;
    ASSERT_EQ(ScaleRuns(names, problems).code, ErrorCode::kOk);
    std::vector<Metrics> m;
    for (size_t i = 0; i < names.size(); ++i) m.push_back(Measure(*Simulate(names[i], problems[i])));
    for (size_t i = 1; i < names.size(); ++i) EXPECT_EQ(m[i].busy, m[0].busy) << names[i] << " unit=" << unit;
    EXPECT_LT(m[1].makespan, m[0].makespan) << "unit=" << unit;  // ZB-H1 before 1F1B
    EXPECT_LT(m[2].makespan, m[0].makespan) << "unit=" << unit;  // ZB-V too
  }
  // The default model in ticks: 1 tick = 1/4 unit (ZB-V's chunk halves B).
  std::vector<Problem> problems(3, Pm(4, 8));
  ASSERT_EQ(ScaleRuns({"1f1b", "zb-h1", "zbv"}, problems).code, ErrorCode::kOk);
  EXPECT_EQ(problems[0].ticks_per_unit, 4);
  EXPECT_EQ(problems[0].costs.b, std::vector<Tick>{4});  // the whole backward, one op
  EXPECT_EQ(problems[1].costs.b, std::vector<Tick>{2});  // B = 1/2 unit
  EXPECT_EQ(problems[1].costs.w, std::vector<Tick>{2});
  EXPECT_EQ(problems[2].costs.b, std::vector<Tick>{1});  // a half-stage chunk's B
}

// The seed's canonical numbers stay: P = 4, M = 6, unit F and backward.
TEST(OneModel, DefaultKeepsTheSeedsNumbers) {
  std::vector<Problem> problems{Pm(4, 6), Pm(4, 6)};
  ASSERT_EQ(ScaleRuns({"gpipe", "1f1b"}, problems).code, ErrorCode::kOk);
  EXPECT_EQ(problems[0].ticks_per_unit, 1);
  const Metrics g = Measure(*Simulate("gpipe", problems[0]));
  const Metrics o = Measure(*Simulate("1f1b", problems[1]));
  EXPECT_EQ(g.makespan, 18);
  EXPECT_EQ(o.makespan, 18);
  EXPECT_EQ(g.busy, 48);
  EXPECT_EQ(g.activations.peak, 23);
  EXPECT_EQ(o.activations.peak, 9);
}

// What is not given is derived; B alone is refused, not guessed.
TEST(OneModel, BackwardPartsAreDerivedOrRefused) {
  Problem p = Pm(4, 8);
  p.costs.bw = {5};
  p.costs.b = {2};
  Result<Timeline> t = Simulate("zb-h1", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->problem.costs.w, std::vector<Tick>{3});  // W = BW - B
  Result<Timeline> whole = Simulate("1f1b", p);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->problem.costs.b, std::vector<Tick>{5});  // BW, as given
  p.costs.bw = {2};
  p.costs.b = {2};
  Result<Timeline> none = Simulate("zb-h1", p);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().Text(), "costs: BW = 2 leaves no W beside B = 2 (B + W = BW)");
  Problem q = Pm(4, 8);
  q.costs.b = {2};
  Result<Timeline> alone = Simulate("1f1b", q);
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.error().code, ErrorCode::kInvalidValue);
  EXPECT_EQ(alone.error().Text(),
            "costs: B is given without W: a backward is B (input gradient) + W (weight gradient); give W too, or BW "
            "alone for a whole backward");
  // A per-stage BW is halved stage by stage.
  Problem r = Pm(2, 4);
  r.costs.bw = {2, 4};
  Result<Timeline> split = Simulate("zb-h1", r);
  ASSERT_TRUE(split.ok()) << split.error().message;
  EXPECT_EQ(split->problem.costs.b, (std::vector<Tick>{1, 2}));
  EXPECT_EQ(split->problem.costs.w, (std::vector<Tick>{1, 2}));
}

}  // namespace
}  // namespace ppsim

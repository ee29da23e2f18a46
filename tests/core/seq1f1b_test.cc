// Seq1F1B and sequence slices (slices.h): the Zero Bubble repository's
// recorded orders, K = 1 as 1F1B, the makespan (M + (P-1)/K)(F+B+W), the
// slice dependencies enforced on custom orders, and the slice cost rules.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/placement.h"
#include "ppsim/simulate.h"
#include "ppsim/slices.h"

namespace ppsim {
namespace {

// "F0.1s0": the names the recorded case uses.
std::vector<std::vector<std::string>> Orders(const Timeline& t) {
  std::vector<std::vector<std::string>> out(t.problem.P);
  for (const PlacedOp& op : t.Ops())
    out[op.device].push_back(std::string(1, KindChar(op.kind)) + std::to_string(op.microbatch) + "." +
                             std::to_string(op.slice) + "s" + std::to_string(op.stage));
  return out;
}

Problem Sliced(int P, int M, int K) {
  Problem p;
  p.P = P;
  p.M = M;
  p.slices = K;
  p.costs.f = {2};
  p.costs.b = {2};
  p.costs.w = {2};
  return p;
}

TEST(Seq1F1B, GivesTheZeroBubbleRepositorysRecordedOrders) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/seq1f1b_public.json");
  const nlohmann::json data = nlohmann::json::parse(in);
  ASSERT_EQ(data["schedules"].size(), 1u);
  for (const nlohmann::json& c : data["schedules"]) {
    // Each slice op costs F = 1 and a full backward B + W = 2: per
    // microbatch, K times that.
    const int K = c["num_seq_splits"];
    Problem p = Sliced(c["P"], c["M"], K);
    p.costs = {};
    p.costs.f = {K * c["costs_per_slice_op"]["F"].get<Tick>()};
    p.costs.b = {K * c["costs_per_slice_op"]["B"].get<Tick>()};
    p.costs.w = {K * c["costs_per_slice_op"]["W"].get<Tick>()};
    p.hold = HoldMode::kResident;
    Result<Timeline> t = Simulate("seq1f1b", p);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(Orders(*t), c["ranks"].get<std::vector<std::vector<std::string>>>());
    EXPECT_EQ(t->problem.ticks_per_unit, 1);
    EXPECT_EQ(t->makespan, c["makespan_B_equals_b_plus_w"].get<double>());
    const Metrics m = Measure(*t);
    EXPECT_EQ(m.activations.peak_per_device, c["peak_activations_per_rank_in_slices"].get<std::vector<std::int64_t>>());
  }
}

TEST(Seq1F1B, OneSliceIsExactly1F1B) {
  for (int P : {1, 2, 4, 5})
    for (int M : {1, 3, 8}) {
      Result<Timeline> a = Simulate("seq1f1b", Sliced(P, M, 1));
      Result<Timeline> b = Simulate("1f1b", Sliced(P, M, 1));
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(a->Ops(), b->Ops()) << "P=" << P << " M=" << M;
      EXPECT_EQ(a->makespan, b->makespan);
    }
}

TEST(Seq1F1B, MakespanIsMPlusPMinus1OverKTimesTheWorkOfAMicrobatch) {
  for (int P : {2, 3, 4, 8})
    for (int K : {1, 2, 3, 4})
      for (int M : {P, 2 * P + 1}) {
        Result<Timeline> t = Simulate("seq1f1b", Sliced(P, M, K));
        ASSERT_TRUE(t.ok()) << t.error().message;
        // F + B + W = 6 units per microbatch; ticks_per_unit k: (M + (P-1)/K)·6·k.
        const Tick k = t->problem.ticks_per_unit;
        EXPECT_EQ(t->makespan * K, (std::int64_t{M} * K + P - 1) * 6 * k) << "P=" << P << " K=" << K << " M=" << M;
      }
}

// A custom order that runs slice 1 before slice 0 on device 0 waits on an
// op its own device has not run: refused, naming it.
TEST(Seq1F1B, AnOrderBreakingTheSliceDependencyIsADeadlockNamingIt) {
  Problem p = Sliced(2, 1, 2);
  Result<Schedule> s = Generate("seq1f1b", p);
  ASSERT_TRUE(s.ok());
  std::swap(s->devices[0][0], s->devices[0][1]);  // F0.1s0 before F0.0s0
  ASSERT_TRUE(CheckComplete(p, *s).ok());
  Result<Timeline> t = Place(p, *s);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(t.error().message, "deadlock: device 0 waits on F0.0@s0 before F0.1@s0");
}

// Backward slices run K-1 .. 0: listed 0 first on the last stage, B0.0s1
// waits for B0.1s1, which its own device runs later.
TEST(Seq1F1B, BackwardSlicesRunLastToFirst) {
  Problem p = Sliced(2, 1, 2);
  Result<Schedule> s = Generate("seq1f1b", p);
  ASSERT_TRUE(s.ok());
  std::vector<Slot>& d1 = s->devices[1];  // F0.0 F0.1 B0.1 B0.0
  std::swap(d1[2], d1[3]);
  Result<Timeline> t = Place(p, *s);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, "deadlock: device 1 waits on B0.1@s1 before B0.0@s1");
}

// Every forward slice starts after the slice before it on its stage ends.
TEST(Seq1F1B, ASliceStartsAfterTheSliceBeforeItOnItsStage) {
  Result<Timeline> t = Simulate("seq1f1b", Sliced(2, 2, 2));
  ASSERT_TRUE(t.ok());
  const OpSpace& space = t->schedule.space;
  for (int u = 1; u < 4; u += 2) {
    for (int s = 0; s < 2; ++s) EXPECT_GE(t->Start(space.Id(OpKind::kF, u, s)), t->end[space.Id(OpKind::kF, u - 1, s)]);
  }
}

TEST(SliceCosts, CausalFollowsMegatronsFlopsPerSlice) {
  Problem p = Sliced(2, 2, 4);
  p.slice_rule = SliceRule::kCausal;
  p.seq_len = 4096;
  p.hidden = 1024;
  ASSERT_TRUE(CheckSlices(p).ok());
  // K(12h + 1) + L(2k+1) = 4·12289 + 4096·(1, 3, 5, 7) = 53252, 61444, ...
  // over their gcd 4.
  EXPECT_EQ(SliceWeights(p), (std::vector<Tick>{13313, 15361, 17409, 19457}));
  Result<Timeline> t = Simulate("seq1f1b", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const OpSpace& space = t->schedule.space;
  auto dur = [&](int u) { return t->end[space.Id(OpKind::kF, u, 0)] - t->Start(space.Id(OpKind::kF, u, 0)); };
  EXPECT_EQ(dur(1) * 13313, dur(0) * 15361);  // in proportion to the weights
  EXPECT_EQ(dur(0) + dur(1) + dur(2) + dur(3), 2 * t->problem.ticks_per_unit);  // a microbatch's F = 2 units
}

TEST(SliceCosts, BadSliceInputIsRefusedNamingTheKey) {
  Problem p = Sliced(2, 2, 2);
  p.slice_rule = SliceRule::kList;
  p.slice_weights = {1, 2, 3};
  EXPECT_EQ(ValidateProblem(p).field, "slice_costs");
  p.slice_weights = {1, 2};
  EXPECT_TRUE(ValidateProblem(p).ok());
  p.seq_len = 4095;
  EXPECT_EQ(ValidateProblem(p).Text(), "slices: 2 slices do not cut seq_len = 4095 into equal parts");
  p.seq_len = 0;
  p.slices = 5000;
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kTooLarge);
  p.slices = 2;
  p.slice_rule = SliceRule::kCausal;
  EXPECT_EQ(ValidateProblem(p).field, "slice_costs");
}

}  // namespace
}  // namespace ppsim

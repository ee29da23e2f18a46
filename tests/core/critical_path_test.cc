// The critical path is a chain from tick 0 to the makespan in which each op
// starts exactly when its predecessor ends (+ comm on a cross-device hop).
#include <gtest/gtest.h>

#include "ppsim/critical_path.h"
#include "ppsim/generators.h"
#include "ppsim/placement.h"
#include "ppsim/simulate.h"
#include "ppsim/slices.h"

namespace ppsim {
namespace {

// Checks the chain against the timeline with no help from CriticalPath's own
// bookkeeping: each hop must be the data dependency (start = end + latency)
// or the op right before it on the same device (start = end).
void ExpectTightChain(const Timeline& t, const std::string& what) {
  const std::vector<CriticalStep> path = CriticalPath(t);
  ASSERT_FALSE(path.empty()) << what;
  EXPECT_EQ(t.Start(path.front().op), 0) << what;
  EXPECT_EQ(t.end[path.back().op], t.makespan) << what;
  const OpSpace& space = t.schedule.space;
  // slot position of every op
  std::vector<std::pair<int, int>> at(t.end.size(), {-1, -1});
  for (int d = 0; d < static_cast<int>(t.schedule.devices.size()); ++d)
    for (int i = 0; i < static_cast<int>(t.schedule.devices[d].size()); ++i)
      for (OpId id : {t.schedule.devices[d][i].op, OpId{t.schedule.devices[d][i].overlapped}})
        if (id != kNoOp) at[id] = {d, i};
  for (size_t k = 1; k < path.size(); ++k) {
    const OpId prev = path[k - 1].op, cur = path[k].op;
    const Slot& slot = t.schedule.devices[at[cur].first][at[cur].second];
    bool ok = false;
    for (OpId id : {slot.op, OpId{slot.overlapped}}) {
      if (id == kNoOp) continue;
      OpId deps[3];  // every dependency placement gave it: the chain's, a slice's, R's
      const int n = DependenciesOf(space, t.problem.slices, t.problem.recompute_at, id, deps);
      for (int j = 0; j < n; ++j) {
        const OpId dep = deps[j];
        if (!t.Has(dep) || at[dep] != at[prev]) continue;
        const int a = space.At(dep).stage, b = space.At(id).stage;
        const Tick latency = a == b ? 0 : t.problem.CommBetween(a, b);
        ok = ok || t.Start(cur) == t.end[dep] + latency;
      }
    }
    const bool device_hop = at[prev].first == at[cur].first && at[prev].second + 1 == at[cur].second &&
                            t.Start(cur) == t.end[prev];
    EXPECT_TRUE(ok || device_hop) << what << ": step " << k << " " << OpName(space.At(cur)) << " starts at "
                                  << t.Start(cur) << " after " << OpName(space.At(prev)) << " ends at " << t.end[prev];
  }
}

TEST(CriticalPath, GPipeCanonicalRunsThroughTheLastForwardAndBackward) {
  Problem p;
  Result<Timeline> t = Simulate("gpipe", p);
  ASSERT_TRUE(t.ok());
  const std::vector<CriticalStep> path = CriticalPath(*t);
  // With unit costs and no comm the chain has no gaps: makespan ops.
  EXPECT_EQ(path.size(), 18u);
  ExpectTightChain(*t, "gpipe P=4 M=6");
}

TEST(CriticalPath, EveryScheduleOverAGridOfSizesCostsAndLatencies) {
  int checked = 0;
  for (const GeneratorInfo& g : Generators()) {
    for (int P : {1, 2, 4}) {
      for (int M : {1, 4, 8}) {
        for (Tick comm : {0, 1, 3}) {
          for (int costs = 0; costs < 2; ++costs) {
            Problem p;
            p.P = P;
            p.M = M;
            p.v = g.fixed_chunks == 0 ? 2 : 1;
            p.comm = comm;
            if (costs == 1) p.costs.f = {2}, p.costs.b = {3}, p.costs.w = {2};
            Result<Timeline> t = Simulate(g.name, p);
            if (!t.ok()) continue;  // the schedule's own precondition
            ExpectTightChain(*t, g.name + " P=" + std::to_string(P) + " M=" + std::to_string(M) +
                                     " comm=" + std::to_string(comm) + " costs=" + std::to_string(costs));
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 50);
}

// With recompute before B, R(m,s) waits on B(m,s+1)'s gradient: the path
// runs through those waits from tick 0 (it stopped at R7@s0, tick 41, when
// it knew only one dependency per op).
TEST(CriticalPath, RecomputeRunsThroughRsWaitOnTheGradient) {
  Problem p;
  p.M = 8;
  p.costs.f = {1};
  p.costs.bw = {2};
  p.recompute = RecomputeMode::kFull;
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok()) << t.error().Text();
  EXPECT_EQ(t->makespan, 44);
  ExpectTightChain(*t, "1f1b recompute full");
  const std::vector<CriticalStep> path = CriticalPath(*t);
  EXPECT_EQ(path.size(), 33u);
  const OpSpace& space = t->schedule.space;
  const size_t last = path.size() - 1;
  EXPECT_EQ(OpName(space.At(path[last - 1].op)), "R7@s0");
  EXPECT_EQ(OpName(space.At(path[last - 2].op)), "B7@s1");  // R7@s0 starts when B7@s1's gradient arrives
  EXPECT_EQ(path[last - 1].via, CriticalStep::Via::kDependency);
  p.recompute_at = RecomputeAt::kEarly;
  Result<Timeline> early = Simulate("1f1b", p);
  ASSERT_TRUE(early.ok());
  EXPECT_EQ(early->makespan, 41);
  ExpectTightChain(*early, "1f1b recompute early");
}

// Sequence slices: F(m,k,s) after F(m,k-1,s), B(m,k,s) after B(m,k+1,s).
TEST(CriticalPath, SlicedRunsReachTickZero) {
  for (int K : {2, 3, 4}) {
    for (Tick comm : {0, 1}) {
      Problem p;
      p.slices = K;
      p.M = 5;
      p.comm = comm;
      p.costs.f = {1};
      p.costs.bw = {2};
      Result<Timeline> t = Simulate("seq1f1b", p);
      ASSERT_TRUE(t.ok()) << t.error().Text();
      ExpectTightChain(*t, "seq1f1b K=" + std::to_string(K) + " comm=" + std::to_string(comm));
    }
  }
}

TEST(CriticalPath, IndicesPointIntoOps) {
  Problem p;
  p.comm = 1;
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok());
  const std::vector<PlacedOp> ops = t->Ops();
  const std::vector<int> idx = CriticalPathIndices(*t);
  const std::vector<CriticalStep> path = CriticalPath(*t);
  ASSERT_EQ(idx.size(), path.size());
  for (size_t k = 0; k < idx.size(); ++k) EXPECT_EQ(ops[idx[k]].op(), t->schedule.space.At(path[k].op));
  EXPECT_EQ(ops[idx.back()].end, 30);
}

}  // namespace
}  // namespace ppsim

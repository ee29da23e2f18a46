// Every schedule, over a grid of sizes and costs: the order is complete
// (every op once, on its stage's device) and places without deadlock, or
// the schedule refuses the size with a precondition error.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/generators.h"
#include "ppsim/placement.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

TEST(ZooGrid, EveryScheduleCompletesOrRefuses) {
  int placed = 0;
  for (const GeneratorInfo& g : Generators()) {
    for (int P = 1; P <= 8; ++P) {
      for (int M = 1; M <= 3 * P + 2; ++M) {
        for (int v = 1; v <= (g.fixed_chunks == 0 ? 3 : 1); ++v) {
          for (int costs = 0; costs < 2; ++costs) {
            Problem p;
            p.P = P;
            p.M = M;
            p.v = v;
            if (costs == 1) {
              p.costs.f = {2};
              p.costs.b = {3};
              p.costs.w = {1};
              p.costs.fb = {4};
              p.comm = 1;
            }
            const std::string label = g.name + " P=" + std::to_string(P) + " M=" + std::to_string(M) +
                                      " v=" + std::to_string(v);
            Result<Schedule> s = Generate(g.name, p);
            if (!s.ok()) {
              EXPECT_EQ(s.error().code, ErrorCode::kPrecondition) << label << ": " << s.error().message;
              continue;
            }
            Error e = CheckComplete(p, *s);
            ASSERT_EQ(e.code, ErrorCode::kOk) << label << ": " << e.message;
            Result<Timeline> t = Place(p, std::move(*s));
            ASSERT_TRUE(t.ok()) << label << ": " << t.error().message;
            ++placed;
          }
        }
      }
    }
  }
  EXPECT_GT(placed, 1000);
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// One microbatch through three devices, per-hop latency 2 then 5:
// F 0-1, +2, 3-4, +5, 9-10; B 10-11, +5, 16-17, +2, 19-20.
TEST(ZooCosts, CommPerHop) {
  Problem p;
  p.P = 3;
  p.M = 1;
  p.comm_hops = {2, 5};
  Result<Timeline> t = Place(p, *Generate("gpipe", p));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->makespan, 20);
  EXPECT_EQ(t->Start(t->schedule.space.Id(OpKind::kF, 0, 2)), 9);
}

// Heterogeneous stages: each device is busy for M times the costs of its
// own stages (an overlapped pair counts FB once), whatever the order.
TEST(ZooCosts, PerStageCostsLandOnTheirDevices) {
  for (const char* name : {"zb-h1", "zb1p", "zbv", "dualpipev", "dualpipe"}) {
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = std::string(name) == "zb1p" ? 2 : 1;
    const int S = 8;
    const bool one_chunk = std::string(name) == "zb-h1";
    const int stages = one_chunk ? 4 : S;
    p.costs.f.clear();
    p.costs.b.clear();
    p.costs.w.clear();
    for (int s = 0; s < stages; ++s) {
      p.costs.f.push_back(1 + s % 3);
      p.costs.b.push_back(2 + s % 2);
      p.costs.w.push_back(1 + s % 4);
    }
    Result<Timeline> t = Simulate(name, p);
    ASSERT_TRUE(t.ok()) << name << ": " << t.error().message;
    const Problem& q = t->problem;
    const OpSpace& space = t->schedule.space;
    for (int d = 0; d < q.P; ++d) {
      Tick expected = 0, busy = 0;
      for (int s = 0; s < q.stages(); ++s)
        if (q.DeviceOf(s) == d)
          for (int m = 0; m < q.M; ++m)
            if (space.Exists(m, s)) expected += q.costs.Of(OpKind::kF, s) + q.costs.Of(OpKind::kB, s) + q.costs.Of(OpKind::kW, s);
      for (const Slot& slot : t->schedule.devices[d]) busy += t->end[slot.op] - t->Start(slot.op);
      EXPECT_EQ(busy, expected) << name << " device " << d;  // no FB given: a pair costs F + B
    }
  }
}

}  // namespace
}  // namespace ppsim

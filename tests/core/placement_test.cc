// Placement against an independent checker, on random costs and random
// valid orders; deadlocks are named, never hung on.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ppsim/generators.h"
#include "ppsim/placement.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

// A random valid order: a random topological order of the whole op graph
// (Kahn's algorithm with random choice), projected onto each device.
Schedule RandomOrder(const Problem& p, std::mt19937& rng) {
  Schedule s;
  s.name = "random";
  s.space = OpSpace(p.stages(), p.M);
  s.devices.resize(p.P);
  const int S = p.stages();
  // next[m] = how far microbatch m has progressed along F0..F(S-1), B(S-1)..B0.
  std::vector<int> next(p.M, 0);
  std::vector<int> live(p.M);
  for (int m = 0; m < p.M; ++m) live[m] = m;
  while (!live.empty()) {
    const size_t k = std::uniform_int_distribution<size_t>(0, live.size() - 1)(rng);
    const int m = live[k];
    const int step = next[m]++;
    const bool fwd = step < S;
    const int stage = fwd ? step : 2 * S - 1 - step;
    s.devices[p.DeviceOf(stage)].push_back({s.space.Id(fwd ? OpKind::kF : OpKind::kB, m, stage), kNoOp});
    if (next[m] == 2 * S) {
      live[k] = live.back();
      live.pop_back();
    }
  }
  return s;
}

// Independent check: every op starts exactly at max(device free, dependency end + c).
void ExpectTight(const Problem& p, const Timeline& t) {
  const OpSpace& space = t.schedule.space;
  const int S = p.stages();
  for (int d = 0; d < p.P; ++d) {
    Tick free_at = 0;
    for (const Slot& slot : t.schedule.devices[d]) {
      const Op op = space.At(slot.op);
      Tick ready = free_at;
      if (op.kind == OpKind::kF && op.stage > 0) {
        const Tick c = p.DeviceOf(op.stage - 1) != d ? p.comm : 0;
        ready = std::max(ready, t.end[space.Id(OpKind::kF, op.microbatch, op.stage - 1)] + c);
      } else if (op.kind == OpKind::kB && op.stage < S - 1) {
        const Tick c = p.DeviceOf(op.stage + 1) != d ? p.comm : 0;
        ready = std::max(ready, t.end[space.Id(OpKind::kB, op.microbatch, op.stage + 1)] + c);
      } else if (op.kind == OpKind::kB) {
        ready = std::max(ready, t.end[space.Id(OpKind::kF, op.microbatch, S - 1)]);
      }
      ASSERT_EQ(t.Start(slot.op), ready) << OpName(op);
      ASSERT_EQ(t.end[slot.op] - t.Start(slot.op), p.costs.Of(op.kind, op.stage)) << OpName(op);
      free_at = t.end[slot.op];
    }
  }
}

TEST(Placement, RandomCostsAndRandomValidOrdersAreTightAndLegal) {
  std::mt19937 rng(20261129);
  for (int trial = 0; trial < 300; ++trial) {
    Problem p;
    p.P = std::uniform_int_distribution<int>(1, 6)(rng);
    p.v = std::uniform_int_distribution<int>(1, 3)(rng);
    p.M = std::uniform_int_distribution<int>(1, 9)(rng);
    p.comm = std::uniform_int_distribution<int>(0, 3)(rng);
    const int S = p.stages();
    p.costs.f.clear();
    p.costs.b.clear();
    p.costs.w.clear();
    for (int s = 0; s < S; ++s) {
      p.costs.f.push_back(std::uniform_int_distribution<int>(1, 5)(rng));
      p.costs.b.push_back(std::uniform_int_distribution<int>(1, 9)(rng));
      p.costs.w.push_back(std::uniform_int_distribution<int>(1, 4)(rng));
    }
    ASSERT_EQ(ValidateProblem(p).code, ErrorCode::kOk);
    Schedule s = RandomOrder(p, rng);
    ASSERT_EQ(CheckComplete(p, s).code, ErrorCode::kOk);
    Result<Timeline> t = Place(p, s);
    ASSERT_TRUE(t.ok()) << t.error().message;
    ExpectTight(p, *t);
  }
}

TEST(Placement, GeneratedSchedulesAreTightWithCommAndPerStageCosts) {
  for (const char* name : {"gpipe", "1f1b", "interleaved", "looped-bfs"}) {
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = std::string(name) == "interleaved" || std::string(name) == "looped-bfs" ? 2 : 1;
    p.comm = 2;
    p.costs.f = std::vector<Tick>(p.stages(), 1);
    p.costs.f[0] = 3;  // a heavy embedding stage
    Result<Timeline> t = Simulate(name, p);
    ASSERT_TRUE(t.ok()) << t.error().message;
    ExpectTight(t->problem, *t);
  }
}

TEST(Placement, DeadlockSpellsOutTheCycle) {
  // Device 0 runs B0@s0 before F0@s0: it waits on B0@s1, which waits on F0@s1,
  // which waits on F0@s0 — queued behind B0@s0.
  Problem p;
  p.P = 2;
  p.M = 1;
  Schedule s;
  s.space = OpSpace(2, 1);
  s.devices = {{{s.space.Id(OpKind::kB, 0, 0), kNoOp}, {s.space.Id(OpKind::kF, 0, 0), kNoOp}},
               {{s.space.Id(OpKind::kF, 0, 1), kNoOp}, {s.space.Id(OpKind::kB, 0, 1), kNoOp}}};
  ASSERT_EQ(CheckComplete(p, s).code, ErrorCode::kOk);
  Result<Timeline> t = Place(p, s);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(t.error().message,
            "deadlock: device 0 waits on B0@s1 before B0@s0; device 1 waits on F0@s0 before F0@s1");
}

TEST(Placement, IncompleteSchedulesAreNamed) {
  Problem p;
  p.P = 2;
  p.M = 2;
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s.ok());
  Schedule missing = *s;
  missing.devices[1].pop_back();
  EXPECT_EQ(CheckComplete(p, missing).message, "B1@s1 is missing (expected on device 1)");
  Schedule twice = *s;
  twice.devices[0].push_back(twice.devices[0][0]);
  EXPECT_EQ(CheckComplete(p, twice).message, "F0@s0 appears twice (device 0 and 0)");
  Schedule wrong = *s;
  std::swap(wrong.devices[0][0], wrong.devices[1][0]);
  EXPECT_EQ(CheckComplete(p, wrong).message, "F0@s1 is listed on device 0 but stage 1 is placed on device 1");
}

TEST(Placement, OneFOneBWithFewerMicrobatchesThanStages) {
  Problem p;
  p.P = 8;
  p.M = 3;
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->makespan, 2 * (3 + 8 - 1));
}

// A timeline stores starts only when some slot is compound (a pair or a full
// backward): 8 bytes per op less for every other schedule. Either way every
// op's start is its end minus what its slot costs.
TEST(Placement, StartsAreStoredOnlyWhenASlotIsCompound) {
  int stored = 0, computed = 0;
  for (const GeneratorInfo& g : Generators()) {
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = g.fixed_chunks == 0 ? 2 : 1;
    p.comm = 1;
    p.costs.f = {2}, p.costs.b = {3}, p.costs.w = {2};
    Result<Timeline> t = Simulate(g.name, p);
    if (!t.ok()) continue;  // the schedule's own precondition
    const OpSpace& space = t->schedule.space;
    const Costs& c = t->problem.costs;
    bool compound = false;
    for (const auto& queue : t->schedule.devices)
      for (const Slot& slot : queue) {
        compound = compound || slot.pair() || slot.full;
        const Op a = space.At(slot.op);
        Tick lasts = slot.full ? c.FullBackward(a.stage) : c.Of(a.kind, a.stage);
        if (slot.pair()) {
          const Op b = space.At(slot.overlapped);
          lasts = a.kind == OpKind::kF ? c.Overlapped(a.stage, b.stage, slot.full) : c.Overlapped(b.stage, a.stage, slot.full);
          EXPECT_EQ(t->Start(slot.overlapped), t->end[slot.op] - lasts) << g.name << " " << OpName(b);
        }
        EXPECT_EQ(t->Start(slot.op), t->end[slot.op] - lasts) << g.name << " " << OpName(a);
      }
    EXPECT_EQ(t->stored_start.empty(), !compound) << g.name;
    ++(compound ? stored : computed);
  }
  EXPECT_GT(stored, 0);    // DualPipe's pairs
  EXPECT_GT(computed, 5);  // GPipe, 1F1B, ...
}

}  // namespace
}  // namespace ppsim

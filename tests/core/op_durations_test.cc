// Problem::op_durations: a measured run replayed with every op's own
// duration (`ppsim explain`). Placement stays exact and tight with it, and
// without it nothing changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ppsim/generators.h"
#include "ppsim/placement.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

std::vector<Tick> RandomDurations(const Problem& p, std::mt19937& rng, int max) {
  std::vector<Tick> d(p.Space().size());
  for (Tick& x : d) x = std::uniform_int_distribution<int>(0, max)(rng);  // 0: an op that takes no time
  return d;
}

TEST(OpDurations, EveryGeneratedScheduleIsTightWithItsOwnDurations) {
  std::mt19937 rng(20261204);
  int placed = 0;
  for (const GeneratorInfo& g : Generators()) {
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = g.fixed_chunks == 0 ? 2 : g.fixed_chunks;
    p.comm = 3;
    Result<Schedule> s = Generate(g.name, p);
    if (!s) continue;  // the schedule's own precondition
    p.ticks_per_unit = 1;
    p.op_durations = RandomDurations(p, rng, 50);
    ASSERT_TRUE(ValidateProblem(p).ok()) << g.name;
    Result<Timeline> t = Place(p, *s);
    ASSERT_TRUE(t.ok()) << g.name << ": " << t.error().message;
    const OpSpace& space = t->schedule.space;
    for (int d = 0; d < p.P; ++d) {
      Tick free_at = 0;
      for (const Slot& slot : t->schedule.devices[d]) {
        // Each slot lasts its first op's entry; it starts when its device is
        // free and its dependencies (both ops' for a pair) have ended.
        Tick ready = free_at;
        for (OpId id : {slot.op, static_cast<OpId>(slot.overlapped)}) {
          if (id == kNoOp) continue;
          const OpId dep = DependencyOf(space, s->split_backward, id);
          if (dep == kNoOp) continue;
          const Op a = space.At(id), b = space.At(dep);
          ready = std::max(ready, t->end[dep] + (a.kind == OpKind::kW ? 0 : p.CommBetween(a.stage, b.stage)));
        }
        ASSERT_EQ(t->Start(slot.op), ready) << g.name << " " << OpName(space.At(slot.op));
        ASSERT_EQ(t->end[slot.op] - t->Start(slot.op), p.op_durations[slot.op]) << g.name;
        if (slot.pair()) {
          ASSERT_EQ(t->Start(slot.overlapped), t->Start(slot.op)) << g.name;
        }
        free_at = t->end[slot.op];
      }
    }
    ++placed;
  }
  EXPECT_GE(placed, 10);
}

TEST(OpDurations, ATableOfTheCostsChangesNothing) {
  Problem p;
  p.P = 4;
  p.M = 6;
  p.comm = 1;
  p.costs.f = {2, 3, 2, 4};
  p.costs.b = {5, 4, 6, 3};
  p.costs.w = {1};
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s.ok());
  p.ticks_per_unit = 1;
  Result<Timeline> plain = Place(p, *s);
  std::vector<Tick> table(p.Space().size(), 0);
  for (OpId id = 0; id < static_cast<OpId>(table.size()); ++id) {
    const Op op = p.Space().At(id);
    table[id] = p.costs.Of(op.kind, op.stage);
  }
  p.op_durations = table;
  Result<Timeline> replay = Place(p, *s);
  ASSERT_TRUE(plain.ok() && replay.ok());
  EXPECT_EQ(replay->end, plain->end);
  EXPECT_EQ(replay->makespan, plain->makespan);
  EXPECT_FALSE(replay->stored_start.empty());  // starts follow the table, not the costs
}

TEST(OpDurations, OneSlowOpDelaysItsChainByExactlyItsExcess) {
  // GPipe, P = 2, M = 1, unit costs, no latency: F0@s0 F0@s1 B0@s1 B0@s0 = 4.
  Problem p;
  p.P = 2;
  p.M = 1;
  Result<Schedule> s = Generate("gpipe", p);
  ASSERT_TRUE(s.ok());
  p.ticks_per_unit = 1;
  p.op_durations.assign(p.Space().size(), 1);
  p.op_durations[p.Space().Id(OpKind::kF, 0, 1)] = 1'000'000'007;  // ns of a real op
  Result<Timeline> t = Place(p, *s);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->makespan, 3 + 1'000'000'007);
}

TEST(OpDurations, BadTablesAreNamed) {
  Problem p;
  p.P = 2;
  p.M = 2;
  p.op_durations.assign(5, 1);
  Error e = ValidateProblem(p);
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.Text(), "op durations: 5 values given, need one per op id (12)");
  p.op_durations.assign(12, 1);
  p.op_durations[p.Space().Id(OpKind::kB, 1, 0)] = -3;
  e = ValidateProblem(p);
  EXPECT_EQ(e.Text(), "op duration of B1@s0 must be in [0, 1099511627776], got -3");
}

}  // namespace
}  // namespace ppsim

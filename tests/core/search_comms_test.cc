// ppsim::Search with communication as ops (docs/search.md, "With
// communication"): every candidate is placed as `simulate --comms` places
// it, the lower bound stays below every comm placement, comms change which
// order wins, and a rule that cannot lower the search's orders is refused.
#include <gtest/gtest.h>

#include <string>

#include "core/search_bound.h"
#include "ppsim/comm_lowering.h"
#include "ppsim/generators.h"
#include "ppsim/placement.h"
#include "ppsim/search.h"

namespace ppsim {
namespace {

Problem Unit(int P, int M, int v = 1) {
  Problem p;
  p.P = P;
  p.M = M;
  p.v = v;
  p.costs.f = {1};
  p.costs.b = {1};
  p.costs.w = {1};
  return p;
}

Problem WithComms(Problem p, CommOrder order, Tick latency) {
  p.comms.order = order;
  p.comms.latency = latency;
  return p;
}

// The evaluation limit, not the clock, stops it: the same result anywhere.
SearchOptions Budget(std::int64_t sets, std::int64_t evaluations = 20000) {
  SearchOptions o;
  o.max_activations = sets;
  o.time_limit_seconds = 600;
  o.max_evaluations = evaluations;
  return o;
}

TEST(SearchComms, TheOrderFoundPlacesAsSimulateDoes) {
  const Problem p = WithComms(Unit(4, 8), CommOrder::kPytorch, 1);
  Result<SearchResult> r = Search(p, Budget(4));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_NE(r->timeline.comms, nullptr);  // placed with its comm ops
  Result<Timeline> again = PlaceRun(p, r->timeline.schedule);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->makespan, r->timeline.makespan);
  EXPECT_LE(r->lower_bound, r->timeline.makespan);
  EXPECT_FALSE(r->validated);  // validate checks the latency model
  // The best fixed schedule that fits is placed with comms too.
  const SearchSeed* seed = r->BestFittingSeed();
  ASSERT_NE(seed, nullptr);
  EXPECT_EQ(seed->name, "zb-h1");
  EXPECT_EQ(seed->makespan, 43);  // 27 without comms
  EXPECT_LT(r->timeline.makespan, 43);
}

// P = 2, M = 4, two stage-sets a device, unit costs, one tick a transfer:
// the latency model ranks 1F1B first (17, proven optimal there), but placed
// with PyTorch's lowering it ends at 20, and ZB-H1 (18) is shorter.
TEST(SearchComms, CommsChangeWhichOrderWins) {
  Problem latency = Unit(2, 4);
  latency.comm = 1;
  Result<SearchResult> free = Search(latency, Budget(2));
  ASSERT_TRUE(free.ok()) << free.error().message;
  EXPECT_EQ(free->timeline.makespan, 17);
  EXPECT_EQ(free->found_by, "seed:1f1b");
  const Problem comms = WithComms(Unit(2, 4), CommOrder::kPytorch, 1);
  Result<Timeline> free_with_comms = PlaceRun(comms, free->timeline.schedule);
  ASSERT_TRUE(free_with_comms.ok());
  EXPECT_EQ(free_with_comms->makespan, 20);

  Result<SearchResult> found = Search(comms, Budget(2));
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->timeline.makespan, 18);
  EXPECT_EQ(found->found_by, "seed:zb-h1");
  // The relaxation's optimum, proven by the exact search: 1F1B's 17.
  EXPECT_EQ(found->lower_bound, 17);
  EXPECT_FALSE(found->optimal);
}

// One stage-set a device, P = 2, M = 2: one microbatch at a time, 7 ticks
// each with a tick per transfer, meets the relaxation's optimum.
TEST(SearchComms, OptimalOnlyWhenTheMakespanMeetsTheBound) {
  Result<SearchResult> r = Search(WithComms(Unit(2, 2), CommOrder::kPytorch, 1), Budget(1));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->timeline.makespan, 14);
  EXPECT_EQ(r->lower_bound, 14);
  EXPECT_TRUE(r->optimal);
}

// The bound's premise (search_bound.h, CommRelaxation): no comm placement of
// an order ends before Place() of the same order with each hop's transfer
// time as its latency. Every registry schedule that lowers, every rule,
// with a size term.
TEST(SearchComms, NoCommPlacementBeatsItsRelaxation) {
  int compared = 0;
  for (CommOrder order : {CommOrder::kPytorch, CommOrder::kPytorchDeferred, CommOrder::kAdjacent, CommOrder::kMegatron})
    for (const GeneratorInfo& g : Generators()) {
      Problem p = WithComms(Unit(4, 8, g.fixed_chunks == 0 ? 1 : g.fixed_chunks), order, 2);
      p.placement = g.placement;
      p.comms.transfer_bytes = {100};
      p.comms.bandwidth = 40;  // 3 ticks a transfer
      Result<Schedule> s = Generate(g.name, p);
      if (!s.ok()) continue;
      Result<Timeline> with = PlaceRun(p, *s);
      if (!with.ok()) continue;  // a rule that does not lower this schedule
      Result<Timeline> relaxed = Place(search::CommRelaxation(p), *s);
      ASSERT_TRUE(relaxed.ok()) << g.name;
      EXPECT_GE(with->makespan, relaxed->makespan) << g.name << " " << CommOrderName(order);
      ++compared;
    }
  EXPECT_GT(compared, 30);
}

TEST(SearchComms, ARuleThatCannotLowerTheOrdersIsRefused) {
  Result<SearchResult> r = Search(WithComms(Unit(4, 8), CommOrder::kMegatron, 1), Budget(4));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(r.error().field, "comms");
  EXPECT_EQ(r.error().message.rfind(" megatron cannot place the search's orders", 0), 0u) << r.error().message;
}

}  // namespace
}  // namespace ppsim

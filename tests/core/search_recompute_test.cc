// Search with recompute (recompute.h, docs/search.md): each R right before
// its B, and the budget counting a set as its inputs between F and R. The
// search's result equals the best of every order (brute force: each order
// placed with its R ops, its memory measured on the placed timeline), and a
// bytes budget too small for any schedule without recompute fits with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "ppsim/memory.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/placement.h"
#include "ppsim/recompute.h"
#include "ppsim/search.h"

namespace ppsim {
namespace {

Problem Make(int P, int M, int v, Tick f, Tick b, Tick w, Tick comm) {
  Problem p;
  p.P = P;
  p.M = M;
  p.v = v;
  p.costs.f = {f};
  p.costs.b = {b};
  p.costs.w = {w};
  p.comm = comm;
  p.recompute = RecomputeMode::kFull;
  return p;
}

// Every order of one device's F, B and W in which no op comes before one it
// needs through the pipeline (F(m,s) before F(m,s') and B(m,s') before
// B(m,s) for s < s'; F before B before W of one set).
std::vector<std::vector<Slot>> DeviceOrders(const Problem& p, const OpSpace& space, int d) {
  std::vector<OpId> ids;
  for (OpId id = 0; id < space.size(); ++id)
    if (p.DeviceOf(space.At(id).stage) == d) ids.push_back(id);
  auto before = [&](const Op& a, const Op& b) {  // a must come before b
    if (a.microbatch != b.microbatch) return false;
    if (b.kind == OpKind::kF) return a.kind == OpKind::kF && a.stage < b.stage;
    if (b.kind == OpKind::kB) return a.kind == OpKind::kF || (a.kind == OpKind::kB && a.stage > b.stage);
    return a.kind == OpKind::kB && a.stage == b.stage;  // W after its B
  };
  std::vector<std::vector<Slot>> out;
  std::vector<Slot> order;
  std::vector<bool> used(ids.size(), false);
  std::function<void()> grow = [&] {
    if (order.size() == ids.size()) {
      out.push_back(order);
      return;
    }
    for (size_t i = 0; i < ids.size(); ++i) {
      if (used[i]) continue;
      bool ready = true;
      for (size_t j = 0; j < ids.size() && ready; ++j)
        if (!used[j] && j != i && before(space.At(ids[j]), space.At(ids[i]))) ready = false;
      if (!ready) continue;
      used[i] = true;
      order.push_back({ids[i], kNoOp});
      grow();
      order.pop_back();
      used[i] = false;
    }
  };
  grow();
  return out;
}

// The shortest makespan of all orders whose placed timeline (R inserted
// right before each B) stays within `fits`; -1 if none does.
Tick BruteForce(const Problem& p, const std::function<bool(const Timeline&)>& fits) {
  Problem plain = p;
  plain.recompute = RecomputeMode::kOff;
  const OpSpace space = plain.Space();
  std::vector<std::vector<std::vector<Slot>>> orders(p.P);
  for (int d = 0; d < p.P; ++d) orders[d] = DeviceOrders(p, space, d);
  Tick best = -1;
  std::vector<size_t> pick(p.P, 0);
  while (true) {
    Schedule s;
    s.space = space;
    s.split_backward = true;
    for (int d = 0; d < p.P; ++d) s.devices.push_back(orders[d][pick[d]]);
    if (Recomputes(p)) {
      EXPECT_TRUE(InsertRecompute(p, s).ok());
    }
    Result<Timeline> t = Place(p, std::move(s));
    if (t.ok() && fits(*t) && (best < 0 || t->makespan < best)) best = t->makespan;
    int d = 0;
    while (d < p.P && ++pick[d] == orders[d].size()) pick[d++] = 0;
    if (d == p.P) break;
  }
  return best;
}

SearchOptions Exact(std::int64_t max_activations) {
  SearchOptions o;
  o.max_activations = max_activations;
  o.time_limit_seconds = 30;
  o.exact_max_ops = 48;
  return o;
}

std::int64_t Fullest(const std::vector<std::int64_t>& v) { return *std::max_element(v.begin(), v.end()); }

// Stage-sets: a recomputed set counts while F runs and from R's start to
// W's end (resident), nothing in between.
TEST(SearchRecompute, OptimalAgreesWithBruteForceInStageSets) {
  for (auto [f, b, w] : {std::tuple<Tick, Tick, Tick>{1, 1, 1}, {2, 2, 1}, {1, 3, 1}})
    for (Tick comm : {0, 1})
      for (std::int64_t budget : {1, 2}) {
        Problem p = Make(2, 2, 1, f, b, w, comm);
        p.hold = HoldMode::kResident;
        const std::string label = "F=" + std::to_string(f) + " B=" + std::to_string(b) + " W=" + std::to_string(w) +
                                  " comm=" + std::to_string(comm) + " budget=" + std::to_string(budget);
        Result<SearchResult> r = Search(p, Exact(budget));
        ASSERT_TRUE(r.ok()) << r.error().Text();
        const Tick brute = BruteForce(p, [&](const Timeline& t) {
          return Fullest(MeasureActivations(t, HoldMode::kResident).peak_per_device) <= budget;
        });
        EXPECT_TRUE(r->optimal) << label;
        EXPECT_EQ(r->timeline.makespan, brute) << label;
        EXPECT_LE(r->lower_bound, brute) << label;
        EXPECT_LE(Fullest(MeasureActivations(r->timeline, HoldMode::kResident).peak_per_device), budget) << label;
        EXPECT_TRUE(r->timeline.problem.recompute == RecomputeMode::kFull) << label;
        EXPECT_TRUE(r->validated) << label;
      }
}

// One stage-set per device, unit costs, two ticks a hop, P = 2, M = 2:
// without recompute a device holds one set from F to W, so the second
// microbatch's forward waits for the first's W (best 18, every order
// tried); with recompute the set is only its inputs between F and R, and
// the best order (15) overlaps the two microbatches although it runs 4
// more ticks of work.
TEST(SearchRecompute, OneSetPerDeviceIsShorterWithRecompute) {
  Problem on = Make(2, 2, 1, 1, 1, 1, 2);
  on.hold = HoldMode::kResident;
  Problem off = on;
  off.recompute = RecomputeMode::kOff;
  Result<SearchResult> with = Search(on, Exact(1));
  Result<SearchResult> without = Search(off, Exact(1));
  ASSERT_TRUE(with.ok() && without.ok());
  const auto one_set = [](const Timeline& t) {
    return Fullest(MeasureActivations(t, HoldMode::kResident).peak_per_device) <= 1;
  };
  EXPECT_EQ(BruteForce(off, one_set), 18);
  EXPECT_EQ(BruteForce(on, one_set), 15);
  EXPECT_EQ(without->timeline.makespan, 18);
  EXPECT_EQ(with->timeline.makespan, 15);
  EXPECT_TRUE(with->optimal && without->optimal);
}

// Bytes: two chunks a device (P = 2, v = 2), 100 bytes a set, inputs a
// tenth. Without recompute a device must hold both chunks of a microbatch
// (200 bytes): a limit of 110 is refused. With it, one whole set and the
// other chunk's inputs fit (110): the search finds the brute force's best.
TEST(SearchRecompute, ABytesBudgetOnlyRecomputeFits) {
  Problem p = Make(2, 1, 2, 1, 1, 1, 0);
  p.memory.activation_bytes = {100};
  p.memory.limit = 110;
  p.recompute_inputs_num = 1;
  p.recompute_inputs_den = 10;
  Problem off = p;
  off.recompute = RecomputeMode::kOff;
  EXPECT_EQ(MinimumBudget(off, true), 200);
  EXPECT_EQ(MinimumBudget(p, true), 110);
  Result<SearchResult> refused = Search(off, Exact(0));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kPrecondition);
  EXPECT_NE(refused.error().message.find("the minimum that works is 200"), std::string::npos)
      << refused.error().message;

  Result<SearchResult> r = Search(p, Exact(0));
  ASSERT_TRUE(r.ok()) << r.error().Text();
  p.hold = HoldMode::kResident;
  const Tick brute =
      BruteForce(p, [](const Timeline& t) { return Fullest(MeasureMemoryBytes(t).peak_per_device) <= 110; });
  EXPECT_GT(brute, 0);
  EXPECT_EQ(r->timeline.makespan, brute);
  EXPECT_LE(Fullest(MeasureMemoryBytes(r->timeline).peak_per_device), 110);
  EXPECT_EQ(Fullest(r->peak_per_device), Fullest(MeasureMemoryBytes(r->timeline).peak_per_device));
}

TEST(SearchRecompute, EarlyRecomputeIsRefusedNamingTheKey) {
  Problem p = Make(2, 2, 1, 1, 1, 1, 0);
  p.recompute_at = RecomputeAt::kEarly;
  Result<SearchResult> r = Search(p, Exact(1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(r.error().field, "recompute_at");
}

}  // namespace
}  // namespace ppsim

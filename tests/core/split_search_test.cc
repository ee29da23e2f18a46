// The split search against brute force: on small models (≤ 12 layers,
// P ≤ 4) the split it returns is as short as the best of every split, empty
// stages included, each searched alone with the same order search; its bound never exceeds that
// best; a budget no split meets names the lightest split's need.
#include "ppsim/split_search.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace ppsim {
namespace {

Model RandomModel(int decoders, std::mt19937& rng) {
  std::uniform_int_distribution<int> cost(1, 4), bytes(1, 8);
  Model m;
  m.layers.push_back({'E', "", cost(rng), cost(rng), 1, 0, 100L * bytes(rng), 0, false});
  for (int i = 0; i < decoders; ++i)
    m.layers.push_back({'t', "", cost(rng), cost(rng), cost(rng), 10L * bytes(rng), 50L * bytes(rng), 0, false});
  m.layers.push_back({'L', "", cost(rng), cost(rng), 0, 0, 100L * bytes(rng), 0, false});
  return m;
}

// Every way to put n decoder layers on S stages, 0 or more on each (a
// stage with none is empty when it builds neither the embedding nor the
// loss), enumerated here without the search's own helpers.
std::vector<std::vector<int>> EveryComposition(int n, int S) {
  std::vector<std::vector<int>> out;
  std::vector<int> cur(static_cast<size_t>(S), 0);
  auto rec = [&](auto& self, int s, int left) -> void {
    if (s == S - 1) {
      cur[static_cast<size_t>(s)] = left;
      out.push_back(cur);
      return;
    }
    for (int c = 0; c <= left; ++c) {
      cur[static_cast<size_t>(s)] = c;
      self(self, s + 1, left - c);
    }
  };
  rec(rec, 0, n);
  return out;
}

bool HasEmptyMiddleStage(const std::vector<int>& decoder) {
  for (size_t s = 1; s + 1 < decoder.size(); ++s)
    if (decoder[s] == 0) return true;
  return false;
}

// The shortest makespan over every split of every family, each split's
// order searched alone (0 when none fits); `empty` false leaves out the
// splits with an empty middle stage.
Tick BruteForce(const Model& m, const SplitSearchOptions& o, bool empty = true) {
  const int n = static_cast<int>(m.layers.size()) - 2;
  Tick best = 0;
  std::vector<ModelSplit> shapes;
  for (int v : o.chunks) shapes.push_back({Placement::kLoop, v, {}});
  if (o.vshape && o.P > 1) shapes.push_back({Placement::kVShape, 2, {}});
  for (ModelSplit s : shapes) {
    for (const std::vector<int>& c : EveryComposition(n, s.v * o.P)) {
      if (!empty && HasEmptyMiddleStage(c)) continue;
      s.decoder = c;
      Result<SearchResult> r = SearchOneSplit(m, s, o);
      if (!r.ok()) continue;  // does not fit, or a stage with layers sums to 0
      if (best == 0 || r->timeline.makespan < best) best = r->timeline.makespan;
    }
  }
  return best;
}

TEST(SplitSearch, AsShortAsTheBestOfEverySplit) {
  std::mt19937 rng(7);
  struct Case {
    int layers, P, M;
    std::vector<int> chunks;
    bool vshape;
  };
  const std::vector<Case> cases = {{6, 2, 3, {1, 2}, true}, {8, 2, 4, {1}, true},  {7, 3, 3, {1}, false},
                                   {10, 3, 2, {1}, false},  {9, 4, 2, {1}, false}, {12, 4, 3, {1}, false},
                                   {5, 2, 2, {1, 2}, true},  {2, 2, 3, {2}, true},   {3, 4, 2, {1}, false}};
  for (const Case& c : cases) {
    const Model m = RandomModel(c.layers, rng);
    SplitSearchOptions o;
    o.P = c.P;
    o.M = c.M;
    o.comm = 1;
    o.chunks = c.chunks;
    o.vshape = c.vshape;
    o.evaluations_per_split = 200;
    o.time_limit_seconds = 600;
    for (std::int64_t limit : {std::int64_t{1} << 40, std::int64_t{12000}}) {
      o.memory_limit = limit;
      const std::string what = std::to_string(c.layers) + " layers, P=" + std::to_string(c.P) +
                               ", limit " + std::to_string(limit);
      const Tick brute = BruteForce(m, o);
      Result<SplitSearchResult> r = SearchSplits(m, o);
      if (brute == 0) {
        EXPECT_FALSE(r.ok()) << what;
        continue;
      }
      ASSERT_TRUE(r.ok()) << what << ": " << r.error().Text();
      EXPECT_EQ(r->order.timeline.makespan, brute) << what;
      EXPECT_LE(r->lower_bound, brute) << what;
      for (const SplitFamily& f : r->families) EXPECT_TRUE(f.exhaustive) << what;
      // The split returned is the one its schedule runs.
      int sum = 0;
      for (int d : r->split.decoder) sum += d;
      EXPECT_EQ(sum, c.layers) << what;
    }
  }
}

// A layer as (F, B, W, activation bytes, parameter bytes).
ModelLayer Layer(char kind, Tick f, Tick b, Tick w, std::int64_t act, std::int64_t param) {
  return {kind, "", f, b, w, act, param, 0, false};
}

// Two models (found by brute force over random ones) where the best split
// leaves a middle stage empty: shorter than every split without one, or
// the only splits within the budget.
TEST(SplitSearch, EmptyStagesWhereTheyHelp) {
  SplitSearchOptions o;
  o.P = 3;
  o.M = 3;
  o.comm = 1;
  o.chunks = {1, 2};
  o.evaluations_per_split = 200;
  o.time_limit_seconds = 600;
  o.memory_limit = 6000;
  Model m;
  m.layers = {Layer('E', 2, 2, 1, 0, 400), Layer('t', 1, 4, 4, 60, 350), Layer('t', 2, 3, 1, 80, 350),
              Layer('t', 3, 2, 3, 50, 100), Layer('t', 1, 4, 3, 30, 50),  Layer('L', 2, 3, 0, 0, 300)};
  Result<SplitSearchResult> r = SearchSplits(m, o);
  ASSERT_TRUE(r.ok()) << r.error().Text();
  EXPECT_EQ(r->order.timeline.makespan, BruteForce(m, o));
  EXPECT_EQ(r->order.timeline.makespan, 66);
  EXPECT_EQ(BruteForce(m, o, false), 71);  // the best without an empty stage
  EXPECT_TRUE(HasEmptyMiddleStage(r->split.decoder));
  EXPECT_EQ(r->order.timeline.problem.empty_stages.size(), 1u);

  m.layers = {Layer('E', 1, 4, 1, 0, 300),   Layer('t', 1, 1, 1, 20, 400), Layer('t', 4, 4, 3, 40, 350),
              Layer('t', 2, 3, 4, 20, 150),  Layer('t', 4, 1, 4, 50, 300), Layer('t', 2, 2, 3, 20, 400),
              Layer('L', 2, 2, 0, 0, 100)};
  EXPECT_EQ(BruteForce(m, o, false), 0);  // no split without an empty stage fits 6000 bytes
  r = SearchSplits(m, o);
  ASSERT_TRUE(r.ok()) << r.error().Text();
  EXPECT_EQ(r->order.timeline.makespan, BruteForce(m, o));
  EXPECT_EQ(r->order.timeline.makespan, 74);
  EXPECT_TRUE(HasEmptyMiddleStage(r->split.decoder));
}

TEST(SplitSearch, ABudgetNoSplitMeetsNamesTheLightest) {
  Model m;
  m.layers.push_back({'E', "", 1, 1, 1, 0, 1000, 0, false});
  for (int i = 0; i < 4; ++i) m.layers.push_back({'t', "", 2, 2, 1, 100, 500, 0, false});
  m.layers.push_back({'L', "", 1, 1, 0, 0, 0, 0, false});
  SplitSearchOptions o;
  o.P = 2;
  o.M = 2;
  o.chunks = {1};
  o.vshape = false;
  o.memory_limit = 1000;
  Result<SplitSearchResult> r = SearchSplits(m, o);
  ASSERT_FALSE(r.ok());
  // E holds 8·1000 static bytes, a layer 8·500 + 100: E|tttt needs 16400 on rank 1, Et|ttt 12100 and
  // 12300, Ett|tt 16200, Ettt|t 20300: the lightest split's fullest device needs 12300.
  EXPECT_EQ(r.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(r.error().Text(),
            "memory_limit 1000 bytes is below what the lightest split needs: the minimum that works is 12300 "
            "(static bytes + one microbatch's activations on the fullest device)");
}

}  // namespace
}  // namespace ppsim

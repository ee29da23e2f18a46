// `validate`: what simulate prints is legal and tight; the same-cycle
// cascade (an op marked finished when it starts) is caught and named.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/simulate.h"
#include "ppsim/validate.h"
#include "timeline_to_check.h"

namespace ppsim {
namespace {

TimelineToCheck FromSimulation(const char* schedule, Problem p) {
  Result<Timeline> t = Simulate(schedule, p);
  EXPECT_TRUE(t.ok());
  return ToCheck(*t);
}

TEST(Validate, AcceptsWhatSimulatePlaces) {
  Problem p;
  p.comm = 1;
  for (const char* s : {"gpipe", "1f1b"}) EXPECT_TRUE(ValidateTimeline(FromSimulation(s, p)).empty()) << s;
  p.v = 2;
  p.M = 8;
  EXPECT_TRUE(ValidateTimeline(FromSimulation("interleaved", p)).empty());
}

// DualPipe's overlapped pairs start when both their inputs have arrived, and
// their full backwards have no W: both legal and tight, over many sizes.
TEST(Validate, AcceptsDualPipesPairsAndFullBackwards) {
  for (const char* s : {"dualpipe", "dualpipev"})
    for (int P : {2, 4, 6})
      for (int M : {2 * P, 2 * P + 2, 3 * P})
        for (bool overlap : {true, false}) {
          Problem p;
          p.P = P;
          p.M = M;
          p.comm = 1;
          p.costs.f = {2};
          p.costs.b = {3};
          p.costs.w = {1};
          p.costs.fb = {4};
          p.overlap = overlap;
          if (std::string(s) == "dualpipe" && M % 2) continue;
          const std::vector<Violation> v = ValidateTimeline(FromSimulation(s, p));
          EXPECT_TRUE(v.empty()) << s << " P=" << P << " M=" << M << " overlap=" << overlap << ": "
                                 << (v.empty() ? "" : v[0].message);
        }
}

TEST(Validate, AFullBackwardHasNoW) {
  Problem p;
  p.M = 8;
  TimelineToCheck c = FromSimulation("dualpipev", p);
  bool marked = false;
  for (const PlacedOp& op : c.ops) marked = marked || op.full;
  ASSERT_TRUE(marked);
  // Unmarking a full backward makes its W missing and its length wrong.
  for (PlacedOp& op : c.ops)
    if (op.full && op.overlap < 0) {
      op.full = false;
      break;
    }
  const std::vector<Violation> v = ValidateTimeline(c);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].rule, "missing");
}

TEST(Validate, RejectsTheSameCycleCascadeNamingTheOp) {
  // A simulator that marks F0 finished when it starts lets it cross every stage at tick 0.
  TimelineToCheck c = FromSimulation("1f1b", Problem());
  for (PlacedOp& op : c.ops)
    if (op.kind == OpKind::kF && op.microbatch == 0) {
      op.end -= op.start;
      op.start = 0;
    }
  const std::vector<Violation> v = ValidateTimeline(c);
  ASSERT_FALSE(v.empty());
  bool named = false;
  for (const Violation& x : v) named = named || x.message == "F0@s1 starts at 0 but F0@s0 ends at 1";
  EXPECT_TRUE(named) << v[0].message;
}

TEST(Validate, RejectsAnOpThatStartsLaterThanItCould) {
  TimelineToCheck c = FromSimulation("gpipe", Problem());
  // Delay the last backward on device 0 by one tick: still legal, no longer tight.
  PlacedOp* last = nullptr;
  for (PlacedOp& op : c.ops)
    if (op.device == 0 && (last == nullptr || op.start > last->start)) last = &op;
  ++last->start;
  ++last->end;
  const std::vector<Violation> v = ValidateTimeline(c);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, "not-tight");
  EXPECT_EQ(v[0].message, "B5@s0 starts at 18 but could start at 17 (device 0 is free at 17)");
}

TEST(Validate, RejectsOverlapsDuplicatesAndMissingOps) {
  TimelineToCheck c = FromSimulation("gpipe", Problem());
  c.ops.push_back(c.ops[0]);
  c.ops.erase(c.ops.begin() + 1);  // F1@s0
  std::vector<std::string> rules;
  for (const Violation& v : ValidateTimeline(c)) rules.push_back(v.rule + ": " + v.message);
  EXPECT_NE(std::find(rules.begin(), rules.end(), "duplicate: F0@s0 appears twice (at [0, 1) and [0, 1))"),
            rules.end());
  EXPECT_NE(std::find(rules.begin(), rules.end(), "missing: F1@s0 is missing"), rules.end());
}

}  // namespace
}  // namespace ppsim

// PlaceGraph (op_graph.h): ops with several dependencies, each with its own
// latency class, placed at the earliest start; a deadlock names the whole
// cycle of waits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/op_graph.h"

namespace ppsim {
namespace {

std::string Name(OpId id) { return "op" + std::to_string(id); }

std::vector<std::vector<Slot>> Queues(const std::vector<std::vector<OpId>>& ids) {
  std::vector<std::vector<Slot>> q(ids.size());
  for (size_t d = 0; d < ids.size(); ++d)
    for (OpId id : ids[d]) q[d].push_back({id, kNoOp});
  return q;
}

// A diamond over three devices: op3 waits on op1 (latency 5) and op2
// (latency 1); it starts at the later of the two, plus its own latency.
TEST(OpGraph, AnOpWithTwoDependenciesStartsAfterTheLaterOnePlusItsLatency) {
  OpGraph g;
  g.Reset(4);
  g.duration = {2, 3, 7, 1};
  g.device = {0, 1, 2, 0};
  const std::uint32_t slow = g.LatencyClass(5), fast = g.LatencyClass(1);
  g.Add(1, 0, slow);
  g.Add(2, 0, fast);
  g.Add(3, 1, slow);
  g.Add(3, 2, fast);
  g.Seal();
  EXPECT_EQ(g.latency, (std::vector<Tick>{0, 5, 1}));
  std::vector<Tick> end(4, -1), start(4, -1);
  Result<Tick> makespan = PlaceGraph(g, Queues({{0, 3}, {1}, {2}}), end.data(), start.data(), Name);
  ASSERT_TRUE(makespan.ok()) << makespan.error().message;
  EXPECT_EQ(start, (std::vector<Tick>{0, 7, 3, 15}));  // op3: max(10 + 5, 10 + 1)
  EXPECT_EQ(end, (std::vector<Tick>{2, 10, 10, 16}));
  EXPECT_EQ(*makespan, 16);
}

TEST(OpGraph, ADeadlockNamesEveryDeviceOfTheCycle) {
  OpGraph g;
  g.Reset(6);
  g.duration = {1, 1, 1, 1, 1, 1};
  g.device = {0, 0, 1, 1, 2, 2};
  g.Add(1, 2, 0);  // device 0's op1 waits on device 1's op2 ...
  g.Add(3, 4, 0);  // device 1's op3 on device 2's op4 ...
  g.Add(5, 0, 0);  // device 2's op5 on device 0's op0
  g.Seal();
  std::vector<Tick> end(6, -1), start(6, -1);
  Result<Tick> r = PlaceGraph(g, Queues({{1, 0}, {3, 2}, {5, 4}}), end.data(), start.data(), Name);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(r.error().message,
            "deadlock: device 0 waits on op2 before op1; device 1 waits on op4 before op3; "
            "device 2 waits on op0 before op5");
}

TEST(OpGraph, ADeviceWaitingOnItsOwnLaterOpIsADeadlockOfOne) {
  OpGraph g;
  g.Reset(2);
  g.duration = {1, 1};
  g.device = {0, 0};
  g.Add(1, 0, 0);
  g.Seal();
  std::vector<Tick> end(2, -1), start(2, -1);
  Result<Tick> r = PlaceGraph(g, Queues({{1, 0}}), end.data(), start.data(), Name);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "deadlock: device 0 waits on op0 before op1");
}

TEST(OpGraph, ADependencyNoDeviceRunsIsNamed) {
  OpGraph g;
  g.Reset(3);
  g.duration = {1, 1, 1};
  g.device = {0, 1, 1};
  g.Add(0, 2, 0);
  g.Seal();
  std::vector<Tick> end(3, -1), start(3, -1);
  Result<Tick> r = PlaceGraph(g, Queues({{0}, {1}}), end.data(), start.data(), Name);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "deadlock: device 0 waits on op2 before op0, which no device will run");
}

}  // namespace
}  // namespace ppsim

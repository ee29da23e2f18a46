// Earliest-start placement over a graph (op_graph.h).
//
// As in the chain placer (placement.cc), every term of an op's start is the
// end of an op placed before it in some topological order, so each op is
// visited once and its start is never revised. Each device runs until an op
// has a dependency not placed yet, then parks on the device that will place
// it; that device wakes it after each of its runs. When every unfinished
// device is parked, the waits form a cycle, which the message spells out.
#include "ppsim/op_graph.h"

#include <algorithm>

namespace ppsim {

void OpGraph::Reset(std::int64_t n) {
  duration.assign(n, 0);
  device.assign(n, -1);
  first.assign(n + 1, 0);
  deps.clear();
  open_ = 0;
}

void OpGraph::Add(OpId id, OpId dep, std::uint32_t latency_class) {
  while (open_ < id) first[++open_] = static_cast<std::uint32_t>(deps.size());
  deps.push_back({dep, latency_class});
  first[id + 1] = static_cast<std::uint32_t>(deps.size());
}

void OpGraph::Seal() {
  const OpId n = static_cast<OpId>(duration.size());
  while (open_ < n) first[++open_] = static_cast<std::uint32_t>(deps.size());
}

std::uint32_t OpGraph::LatencyClass(Tick ticks) {
  const auto at = std::find(latency.begin(), latency.end(), ticks);
  if (at != latency.end()) return static_cast<std::uint32_t>(at - latency.begin());
  latency.push_back(ticks);
  return static_cast<std::uint32_t>(latency.size() - 1);
}

namespace {

struct GraphLane {
  const Slot* queue = nullptr;
  size_t size = 0;
  size_t cursor = 0;
  Tick free_at = 0;
  OpId waits_on = kNoOp;
  int parked_head = -1;
  int next_parked = -1;
};

// Places `lane`'s ops from its cursor until one waits; returns the op it
// waits on, or kNoOp when the queue is done.
OpId RunGraphLane(GraphLane& lane, const OpGraph& g, Tick* end, Tick* start) {
  const std::uint32_t* const first = g.first.data();
  const GraphDep* const deps = g.deps.data();
  const Tick* const latency = g.latency.data();
  size_t i = lane.cursor;
  Tick now = lane.free_at;
  OpId blocked = kNoOp;
  for (; i < lane.size; ++i) {
    const OpId id = lane.queue[i].op;
    Tick ready = now;
    for (std::uint32_t k = first[id], last = first[id + 1]; k < last; ++k) {
      const Tick e = end[deps[k].op];
      if (e < 0) { blocked = deps[k].op; break; }
      ready = std::max(ready, e + latency[deps[k].latency_class]);
    }
    if (blocked != kNoOp) break;
    start[id] = ready;
    now = end[id] = ready + g.duration[id];
  }
  lane.cursor = i;
  lane.free_at = now;
  return blocked;
}

std::string CycleMessage(const OpGraph& g, const std::vector<GraphLane>& lanes, const OpNamer& name) {
  const int P = static_cast<int>(lanes.size());
  int d = -1;
  for (int i = 0; i < P && d < 0; ++i)
    if (lanes[i].waits_on != kNoOp) d = i;
  std::vector<int> seen_at(P, -1);
  std::vector<int> path;
  while (d >= 0 && seen_at[d] < 0) {
    seen_at[d] = static_cast<int>(path.size());
    path.push_back(d);
    const int next = g.device[lanes[d].waits_on];
    if (next < 0 || next >= P || lanes[next].waits_on == kNoOp) {
      const GraphLane& lane = lanes[d];
      return "deadlock: device " + std::to_string(d) + " waits on " + name(lane.waits_on) + " before " +
             name(lane.queue[lane.cursor].op) + ", which no device will run";
    }
    d = next;
  }
  std::string msg = "deadlock:";
  const size_t from = d >= 0 ? static_cast<size_t>(seen_at[d]) : 0;
  for (size_t i = from; i < path.size(); ++i) {
    const GraphLane& lane = lanes[path[i]];
    msg += (i == from ? " device " : "; device ") + std::to_string(path[i]) + " waits on " + name(lane.waits_on) +
           " before " + name(lane.queue[lane.cursor].op);
  }
  return msg;
}

}  // namespace

Result<Tick> PlaceGraph(const OpGraph& graph, const std::vector<std::vector<Slot>>& queues, Tick* end, Tick* start,
                        const OpNamer& name) {
  const int P = static_cast<int>(queues.size());
  std::vector<GraphLane> lanes(P);
  for (int d = 0; d < P; ++d) {
    lanes[d].queue = queues[d].data();
    lanes[d].size = queues[d].size();
  }
  std::vector<int> runnable;
  runnable.reserve(P);
  for (int d = P - 1; d >= 0; --d) runnable.push_back(d);
  int finished = 0;
  while (!runnable.empty()) {
    const int d = runnable.back();
    runnable.pop_back();
    const OpId blocked = RunGraphLane(lanes[d], graph, end, start);
    if (blocked == kNoOp) {
      ++finished;
    } else {
      const int on = graph.device[blocked];
      lanes[d].waits_on = blocked;
      if (on >= 0 && on < P && on != d) {  // a device waiting on itself is never woken
        lanes[d].next_parked = lanes[on].parked_head;
        lanes[on].parked_head = d;
      }
    }
    for (int* link = &lanes[d].parked_head; *link >= 0;) {
      GraphLane& waiter = lanes[*link];
      if (end[waiter.waits_on] >= 0) {
        runnable.push_back(*link);
        waiter.waits_on = kNoOp;
        *link = waiter.next_parked;
      } else {
        link = &waiter.next_parked;
      }
    }
  }
  if (finished != P) return Fail(ErrorCode::kDeadlock, CycleMessage(graph, lanes, name));
  Tick makespan = 0;
  for (const GraphLane& lane : lanes) makespan = std::max(makespan, lane.free_at);
  return makespan;
}

}  // namespace ppsim

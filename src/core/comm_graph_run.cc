// comm::PlaceGraph: the graph (comm_graph.h) placed in a topological
// order. Every node's time is a max over nodes placed before it plus its own
// duration, so each is visited once (as Place() visits each op once): a
// transfer starts at its rendezvous, or when the calls whose slots it takes
// on each side have completed, whichever is later. When nodes are left, the
// walk back along unplaced ones names the cycle of waits.
#include <algorithm>
#include <string>
#include <utility>

#include "comm_graph.h"
#include "comm_slot_ticks.h"
#include "ppsim/checked.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

using comm::CommGraph;
using comm::Node;
using comm::SlotTicks;

class Runner {
 public:
  Runner(const Problem& problem, const Schedule& schedule, const CommModel& model, CommGraph& g)
      : problem_(problem), schedule_(schedule), model_(model), g_(g) {}

  Result<CommRun> Run() {
    const Node n = g_.size();
    start_.assign(g_.actions.size(), 0);
    end_.assign(g_.actions.size(), 0);
    std::vector<Node> ready;
    for (Node i = 0; i < n; ++i)
      if (g_.indegree[i] == 0) ready.push_back(i);
    Node placed = 0;
    while (!ready.empty()) {
      const Node v = ready.back();
      ready.pop_back();
      ++placed;
      Place(v);
      for (std::int64_t k = g_.first[v]; k < g_.first[v + 1]; ++k)
        if (--g_.indegree[g_.succ[k]] == 0) ready.push_back(g_.succ[k]);
    }
    if (placed != n) return Fail(ErrorCode::kDeadlock, Deadlock());
    if (overflow_) return Fail(ErrorCode::kInvalidValue, "a transfer's or the step's time leaves int64 (bytes or latency too large)");
    return Finish();
  }

 private:
  Tick TransferTicks(const Transfer& t) const { return model_.latency + model_.SizeTicks(t.bytes); }

  Tick Add(Tick a, Tick b) {
    const std::optional<Tick> s = CheckedAdd(a, b);
    if (!s || *s > kMaxWork) { overflow_ = true; return 0; }
    return *s;
  }

  void Wait(int device, Tick from, Tick until, std::int32_t transfer) {
    if (until > from) waits_.push_back(CommWait{device, from, until, transfer});
  }

  void Place(Node v) {
    const auto A = static_cast<Node>(g_.actions.size());
    const auto T = static_cast<Node>(g_.transfers.size());
    if (v < A) return PlaceAction(v);
    if (v < A + T) return PlaceTransfer(static_cast<std::int32_t>(v - A));
    PlaceCollective(static_cast<std::int32_t>(v - A - T));
  }

  void PlaceAction(Node a) {
    const comm::ActionInfo& info = g_.actions[a];
    const CommAction& act = g_.Action(a);
    Tick ready = info.index > 0 ? end_[a - 1] : 0;
    if (info.batch_first >= 0) {  // the device waits for its blocking batch
      Tick until = ready, comm_from = ready;
      std::int32_t last = -1;
      for (Node b = info.batch_first; b < a; ++b) {
        const std::int32_t t = g_.actions[b].transfer;
        if (t < 0) continue;
        const comm::TransferInfo& x = g_.transfers[t];
        comm_from = std::max(comm_from, end_[x.producer]);
        if (x.t.end > until) { until = x.t.end; last = t; }
      }
      Wait(info.device, comm_from, until, last);
      ready = until;
    }
    Tick duration = 0;
    if (act.kind == CommKind::kCompute) {
      for (OpId id : {act.slot.op, OpId{act.slot.overlapped}}) {  // local inputs
        if (id == kNoOp) continue;
        const OpId p = DependencyOf(*g_.space, schedule_.split_backward, id);
        if (p != kNoOp && problem_.DeviceOf(g_.space->At(p).stage) == info.device)
          ready = std::max(ready, end_[g_.op_action[p]]);
      }
      if (info.collective >= 0) {
        const Collective& c = g_.collectives[info.collective].c;
        Wait(info.device, std::max(ready, c.start), c.end, -1);
        ready = std::max(ready, c.end);
      }
      std::int32_t late = -1;
      for (std::int32_t t : info.in_transfer)
        if (t >= 0 && (late < 0 || g_.transfers[t].t.end > g_.transfers[late].t.end)) late = t;
      if (late >= 0) {
        const comm::TransferInfo& x = g_.transfers[late];
        Wait(info.device, std::max(ready, end_[x.producer]), x.t.end, late);
        ready = std::max(ready, x.t.end);
      }
      duration = SlotTicks(problem_, *g_.space, act.slot);
    }
    start_[a] = ready;
    end_[a] = Add(ready, duration);
  }

  void PlaceTransfer(std::int32_t i) {
    comm::TransferInfo& x = g_.transfers[i];
    x.t.send_post = start_[x.send];
    x.t.recv_post = start_[x.recv];
    Tick s = std::max(x.t.send_post, x.t.recv_post);
    for (std::int32_t p : {x.prev_at_src, x.prev_at_dst})
      if (p >= 0) s = std::max(s, g_.transfers[p].t.end);
    x.t.start = s;
    x.t.end = Add(s, TransferTicks(x.t));
  }

  void PlaceCollective(std::int32_t i) {
    comm::CollectiveInfo& c = g_.collectives[i];
    Tick s = start_[c.action];
    if (c.prev >= 0) s = std::max(s, g_.collectives[c.prev].c.end);
    c.c.start = s;
    c.c.end = Add(s, CollectiveTicks(c.c));
  }

  Tick CollectiveTicks(const Collective& c) const {
    const Tick given = c.kind == CommKind::kUnshard ? model_.unshard : model_.reduce_grad;
    if (given > 0 || model_.bandwidth == 0) return given;
    const std::vector<std::int64_t>& params = problem_.memory.param_bytes;
    if (params.empty()) return 0;
    return model_.SizeTicks(params.size() == 1 ? params[0] : params[c.stage]);
  }

  std::string Deadlock() const;
  Result<CommRun> Finish();

  const Problem& problem_;
  const Schedule& schedule_;
  const CommModel& model_;
  CommGraph& g_;
  std::vector<Tick> start_, end_;  // by action
  std::vector<CommWait> waits_;
  bool overflow_ = false;
};

// Walks back from a device's first unplaced action along unplaced nodes
// until one repeats, keeping each device's first unplaced action and each
// transfer: the cycle of waits, spelled as each device waiting on an action
// before the one it cannot run.
std::string Runner::Deadlock() const {
  const Node A = static_cast<Node>(g_.actions.size());
  const Node T = static_cast<Node>(g_.transfers.size());
  const auto head = [&](int d) {  // first unplaced action of device d
    for (Node a = g_.offset[d]; a < A && g_.actions[a].device == d; ++a)
      if (g_.indegree[a] > 0) return a;
    return Node{-1};
  };
  // Unplaced predecessors: recompute from the edges (the graph keeps successors only).
  std::vector<std::vector<Node>> pred(static_cast<size_t>(g_.size()));
  for (Node v = 0; v < g_.size(); ++v)
    for (std::int64_t k = g_.first[v]; k < g_.first[v + 1]; ++k)
      pred[g_.succ[k]].push_back(v);
  const auto stuck = [&](Node v) { return g_.indegree[v] > 0; };
  Node v = -1;
  for (int d = 0; d < problem_.P && v < 0; ++d) v = head(d);
  std::vector<Node> path;
  std::vector<std::int64_t> seen(static_cast<size_t>(g_.size()), -1);
  while (v >= 0 && seen[v] < 0) {
    if (v < A) v = head(g_.actions[v].device);
    if (seen[v] >= 0) break;
    seen[v] = static_cast<std::int64_t>(path.size());
    path.push_back(v);
    Node next = -1;
    for (Node p : pred[v])  // prefer a wait off the device's own stream
      if (stuck(p) && !(v < A && p == v - 1)) { next = p; break; }
    v = next;
  }
  std::string msg = "deadlock:";
  const size_t from = v >= 0 && seen[v] >= 0 ? static_cast<size_t>(seen[v]) : 0;
  bool first = true;
  for (size_t i = from; i < path.size(); ++i) {
    const Node a = path[i];
    const size_t j = i + 1 < path.size() ? i + 1 : from;  // what it waits on
    const Node w = path[j];
    if (a >= A && a < A + T && w >= A && w < A + T) {  // a transfer queued behind another on one device's calls
      const Transfer& x = g_.transfers[a - A].t;
      const Transfer& y = g_.transfers[w - A].t;
      const int d = g_.transfers[a - A].prev_at_src == w - A ? x.src : x.dst;
      msg += std::string(first ? " " : "; ") + comm::SideName(x, x.src == d) + " queues behind " +
             comm::SideName(y, y.src == d) + " on device " + std::to_string(d);
      first = false;
      continue;
    }
    if (a >= A) continue;
    std::string what;
    const int d = g_.actions[a].device;
    if (w >= A && w < A + T) {
      const Transfer& t = g_.transfers[w - A].t;
      what = comm::SideName(t, t.src == d);
    } else if (w < A) {
      what = CommActionName(*g_.space, g_.Action(w)) + " on device " + std::to_string(g_.actions[w].device);
    } else {
      what = "a collective";
    }
    msg += std::string(first ? " " : "; ") + "device " + std::to_string(d) + " waits on " + what + " before " +
           CommActionName(*g_.space, g_.Action(a));
    first = false;
  }
  return msg;
}

Result<CommRun> Runner::Finish() {
  CommRun run;
  Timeline& t = run.timeline;
  const OpSpace& space = *g_.space;
  const std::int64_t kinds = schedule_.split_backward ? 3 : 2;
  const std::int64_t n = kinds * space.stages() * space.microbatches();
  t.problem = problem_;
  t.end.assign(static_cast<size_t>(n), -1);
  t.stored_start.assign(static_cast<size_t>(n), -1);
  std::vector<Tick> device_end(problem_.P, 0);
  comm::PostingOrder posts;
  posts.Clear(problem_.P);
  for (int d = 0; d < problem_.P; ++d) {
    posts.StartDevice(d);
    const size_t last = d + 1 < problem_.P ? static_cast<size_t>(g_.offset[d + 1]) : g_.actions.size();
    for (size_t a = static_cast<size_t>(g_.offset[d]); a < last; ++a) {
      device_end[d] = std::max(device_end[d], end_[a]);
      const CommAction& act = g_.Action(static_cast<Node>(a));
      if (act.kind == CommKind::kSendF || act.kind == CommKind::kSendB) posts.sends.push_back(g_.actions[a].transfer);
      if (act.kind == CommKind::kRecvF || act.kind == CommKind::kRecvB) posts.recvs.push_back(g_.actions[a].transfer);
      if (act.kind != CommKind::kCompute) continue;
      for (OpId id : {act.slot.op, OpId{act.slot.overlapped}}) {
        if (id == kNoOp) continue;
        t.end[id] = end_[a];
        t.stored_start[id] = start_[a];
      }
    }
  }
  posts.StartDevice(problem_.P);
  t.schedule = schedule_;
  for (const comm::TransferInfo& x : g_.transfers) run.transfers.push_back(x.t);
  for (const comm::CollectiveInfo& c : g_.collectives) run.collectives.push_back(c.c);
  // Each device's waits in its program order (Kahn's visits a device's actions in order).
  std::stable_sort(waits_.begin(), waits_.end(),
                   [](const CommWait& a, const CommWait& b) { return a.device < b.device; });
  run.waits = std::move(waits_);
  comm::FigureBuffers buffers;
  comm::FinishFigures(problem_, model_, device_end, posts, buffers, run);
  return run;
}

}  // namespace

namespace comm {

Result<CommRun> PlaceGraph(const Problem& problem, const Schedule& schedule, const CommProgram& program,
                           const CommModel& model) {
  Result<CommGraph> g = CommGraph::Build(problem, schedule, program, model);
  if (!g) return g.error();
  return Runner(problem, schedule, model, *g).Run();
}

}  // namespace comm
}  // namespace ppsim

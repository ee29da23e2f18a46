// CommGraph::Build: one pass over the programs to name every transfer and
// collective and check the program against the schedule, a second to find
// each compute action's inputs, then the edges.
#include "comm_graph.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include "ppsim/placement.h"

namespace ppsim::comm {

std::string SideName(const Transfer& t, bool send) {
  const int stage = t.backward ? (send ? t.boundary + 1 : t.boundary) : (send ? t.boundary : t.boundary + 1);
  const char* kind = t.backward ? (send ? "SEND_B" : "RECV_B") : (send ? "SEND_F" : "RECV_F");
  return std::string(kind) + std::to_string(t.microbatch) + "@s" + std::to_string(stage);
}

namespace {

Error Bad(std::string what) { return Fail(ErrorCode::kBadSchedule, std::move(what)); }
std::string Dev(int d) { return "device " + std::to_string(d); }

class Builder {
 public:
  Builder(const Problem& problem, const Schedule& schedule, const CommProgram& program, const CommModel& model)
      : problem_(problem), schedule_(schedule), space_(schedule.space), program_(program), model_(model) {
    g_.problem = &problem;
    g_.space = &schedule.space;
    g_.program = &program;
  }

  Result<CommGraph> Run() {
    if (static_cast<int>(program_.devices.size()) != problem_.P)
      return Bad("the comm program has " + std::to_string(program_.devices.size()) + " device programs, P = " +
                 std::to_string(problem_.P));
    const std::int64_t S = space_.stages(), M = space_.microbatches();
    transfer_of_.assign(static_cast<size_t>(2 * M * std::max<std::int64_t>(S - 1, 0)), -1);
    g_.op_action.assign(static_cast<size_t>(space_.size()), -1);
    for (int d = 0; d < problem_.P; ++d) {
      Error e = ScanDevice(d);
      if (!e.ok()) return e;
    }
    for (const TransferInfo& t : g_.transfers) {
      if (t.send < 0) return Bad(SideName(t.t, false) + " on " + Dev(t.t.dst) + " has no " + SideName(t.t, true) + " on " + Dev(t.t.src));
      if (t.recv < 0) return Bad(SideName(t.t, true) + " on " + Dev(t.t.src) + " has no " + SideName(t.t, false) + " on " + Dev(t.t.dst));
    }
    Error e = Inputs();
    if (!e.ok()) return e;
    Channels();
    Edges();
    return std::move(g_);
  }

 private:
  // The transfer a SEND/RECV action names; -1 with *error set when it names none.
  Result<std::int32_t> TransferOf(int d, const CommAction& a) {
    const int S = space_.stages();
    const bool backward = a.kind == CommKind::kSendB || a.kind == CommKind::kRecvB;
    const bool send = a.kind == CommKind::kSendF || a.kind == CommKind::kSendB;
    const int boundary = backward ? (send ? a.stage - 1 : a.stage) : (send ? a.stage : a.stage - 1);
    Transfer t{backward, boundary, a.microbatch, 0, 0, 0, 0, 0, 0, 0};
    const std::string name = CommKindName(a.kind) + std::to_string(a.microbatch) + "@s" + std::to_string(a.stage);
    if (a.stage < 0 || a.stage >= S || boundary < 0 || boundary >= S - 1 || a.microbatch < 0 ||
        a.microbatch >= space_.microbatches() || !space_.Exists(a.microbatch, boundary) ||
        !space_.Exists(a.microbatch, boundary + 1) || (space_.split() != 0 && boundary == space_.split() - 1))
      return Bad(Dev(d) + " lists " + name + ", which names no transfer of this pipeline");
    if (problem_.DeviceOf(a.stage) != d)
      return Bad(name + " is on " + Dev(d) + ", but stage " + std::to_string(a.stage) + " is computed on " +
                 Dev(problem_.DeviceOf(a.stage)));
    t.src = problem_.DeviceOf(backward ? boundary + 1 : boundary);
    t.dst = problem_.DeviceOf(backward ? boundary : boundary + 1);
    if (t.src == t.dst)
      return Bad(name + " on " + Dev(d) + ": stages " + std::to_string(boundary) + " and " + std::to_string(boundary + 1) +
                 " are both on it, there is nothing to send");
    t.bytes = model_.BytesAt(boundary);
    const size_t key = (static_cast<size_t>(a.microbatch) * (S - 1) + boundary) * 2 + (backward ? 1 : 0);
    std::int32_t& id = transfer_of_[key];
    if (id < 0) {
      id = static_cast<std::int32_t>(g_.transfers.size());
      g_.transfers.push_back(TransferInfo{t});
    }
    TransferInfo& info = g_.transfers[id];
    Node& side = send ? info.send : info.recv;
    if (side >= 0)
      return Bad(name + " appears twice (" + Dev(g_.actions[side].device) + " at action " +
                 std::to_string(g_.actions[side].index + 1) + " and " + Dev(d) + ")");
    side = static_cast<Node>(g_.actions.size());
    return id;
  }

  Error ScanDevice(int d) {
    g_.offset.push_back(static_cast<std::int64_t>(g_.actions.size()));
    const std::vector<Slot>& queue = schedule_.devices[d];
    size_t slot_at = 0;
    std::unordered_map<int, std::int32_t> unshard;  // stage -> its latest UNSHARD
    std::int32_t batch = -1;
    std::int64_t batch_first = -1, last_batch_first = -1;
    std::int32_t last_collective = -1;
    const std::vector<CommAction>& actions = program_.devices[d];
    for (size_t i = 0; i < actions.size(); ++i) {
      const CommAction& a = actions[i];
      ActionInfo info;
      info.device = d;
      info.index = static_cast<std::int32_t>(i);
      const std::int64_t me = static_cast<std::int64_t>(g_.actions.size());
      if (a.batch != batch) {  // a blocking batch ended (or began) here
        if (batch >= 0) last_batch_first = batch_first;
        if (a.batch >= 0) batch_first = me;
        batch = a.batch;
      }
      if (last_batch_first >= 0) info.batch_first = static_cast<std::int32_t>(last_batch_first);
      last_batch_first = -1;
      if (a.kind == CommKind::kCompute) {
        if (slot_at >= queue.size() || !(queue[slot_at] == a.slot))
          return Bad(Dev(d) + "'s program runs " + OpName(space_.At(a.slot.op)) + " at action " + std::to_string(i + 1) +
                     ", where its schedule runs " +
                     (slot_at < queue.size() ? OpName(space_.At(queue[slot_at].op)) : std::string("nothing more")));
        ++slot_at;
        g_.op_action[a.slot.op] = me;
        if (a.slot.pair()) g_.op_action[a.slot.overlapped] = me;
        std::int32_t c = -1;
        for (OpId id : {a.slot.op, OpId{a.slot.overlapped}}) {
          if (id == kNoOp) continue;
          const auto it = unshard.find(space_.At(id).stage);
          if (it != unshard.end()) c = std::max(c, it->second);
        }
        info.collective = c;
      } else if (IsTransferKind(a.kind)) {
        Result<std::int32_t> t = TransferOf(d, a);
        if (!t) return t.error();
        info.transfer = *t;
      } else {
        if (a.stage < 0 || a.stage >= space_.stages() || problem_.DeviceOf(a.stage) != d)
          return Bad(std::string(CommKindName(a.kind)) + "@s" + std::to_string(a.stage) + " is on " + Dev(d) +
                     ", which does not compute that stage");
        if (a.kind != CommKind::kReshard) {
          Collective c{a.kind, d, a.stage, 0, 0};
          info.collective = static_cast<std::int32_t>(g_.collectives.size());
          g_.collectives.push_back(CollectiveInfo{c, me, last_collective});
          last_collective = info.collective;
          if (a.kind == CommKind::kUnshard) unshard[a.stage] = info.collective;
        }
      }
      g_.actions.push_back(info);
    }
    if (slot_at != queue.size())
      return Bad(Dev(d) + "'s program stops before " + OpName(space_.At(queue[slot_at].op)) + ", which its schedule runs");
    return Error::Ok();
  }

  // The op whose output `id` consumes, or kNoOp.
  OpId Producer(OpId id) const { return DependencyOf(space_, schedule_.split_backward, id); }

  Error Inputs() {
    for (size_t a = 0; a < g_.actions.size(); ++a) {
      ActionInfo& info = g_.actions[a];
      const CommAction& act = g_.Action(static_cast<std::int64_t>(a));
      if (act.kind != CommKind::kCompute) continue;
      int k = 0;
      for (OpId id : {act.slot.op, OpId{act.slot.overlapped}}) {
        if (id == kNoOp) continue;
        const OpId p = Producer(id);
        if (p == kNoOp) continue;
        const Op op = space_.At(id), from = space_.At(p);
        if (problem_.DeviceOf(from.stage) == info.device) continue;  // local: an edge from its action
        const bool backward = op.kind == OpKind::kB;
        const int boundary = backward ? op.stage : op.stage - 1;
        const size_t key = (static_cast<size_t>(op.microbatch) * (space_.stages() - 1) + boundary) * 2 + (backward ? 1 : 0);
        const std::int32_t t = transfer_of_[key];
        Transfer want{backward, boundary, op.microbatch, 0, 0, 0, 0, 0, 0, 0};
        if (t < 0)
          return Bad(OpName(op) + " on " + Dev(info.device) + " needs " + SideName(want, false) + ", which " +
                     Dev(info.device) + "'s program does not post");
        if (g_.transfers[t].recv > static_cast<Node>(a))
          return Bad(OpName(op) + " on " + Dev(info.device) + " comes before its " + SideName(want, false));
        info.in_transfer[k++] = t;
      }
    }
    for (TransferInfo& t : g_.transfers) {
      const OpId p = t.t.backward ? space_.Id(OpKind::kB, t.t.microbatch, t.t.boundary + 1)
                                  : space_.Id(OpKind::kF, t.t.microbatch, t.t.boundary);
      t.producer = g_.op_action[p];
      if (t.producer < 0 || t.producer > t.send)
        return Bad(SideName(t.t, true) + " on " + Dev(t.t.src) + " comes before " + OpName(space_.At(p)) +
                   ", whose output it sends");
    }
    return Error::Ok();
  }

  // Each device's point-to-point stream, in its posting order: a pending
  // RECV holds back every later call on it, SENDs included (an isend is
  // handed over and the stream goes on). With `concurrency` c a call waits
  // for the c-th latest RECV posted before it on its device to complete;
  // the calls of one blocking batch post as one group (batch_isend_irecv),
  // so they count only the RECVs posted before their batch.
  void Channels() {
    if (model_.concurrency == 0) return;  // unlimited: nothing waits
    const size_t n = static_cast<size_t>(model_.concurrency);
    std::vector<std::vector<std::int32_t>> recvs(problem_.P);  // per device, its RECVs so far
    std::int32_t batch = -1;
    size_t before_batch = 0;  // the device's RECVs posted before the current batch
    for (size_t a = 0; a < g_.actions.size(); ++a) {
      const ActionInfo& info = g_.actions[a];
      std::vector<std::int32_t>& list = recvs[info.device];
      const std::int32_t b = g_.Action(static_cast<std::int64_t>(a)).batch;
      if (info.index == 0 || b != batch) {  // a batch (or none) begins
        batch = b;
        before_batch = list.size();
      }
      if (info.transfer < 0) continue;
      TransferInfo& t = g_.transfers[info.transfer];
      const bool send = t.send == static_cast<Node>(a);
      const size_t before = batch >= 0 ? before_batch : list.size();
      if (before >= n) (send ? t.prev_at_src : t.prev_at_dst) = list[before - n];
      if (!send) list.push_back(info.transfer);
    }
  }

  void Edges() {
    std::vector<std::pair<Node, Node>> e;
    for (size_t a = 0; a < g_.actions.size(); ++a) {
      const ActionInfo& info = g_.actions[a];
      const Node me = static_cast<Node>(a);
      if (info.index > 0) e.emplace_back(me - 1, me);
      if (info.batch_first >= 0)
        for (Node b = info.batch_first; b < me; ++b)
          if (g_.actions[b].transfer >= 0) e.emplace_back(g_.TransferNode(g_.actions[b].transfer), me);
      const CommAction& act = g_.Action(me);
      if (act.kind == CommKind::kCompute) {
        for (std::int32_t t : info.in_transfer)
          if (t >= 0) e.emplace_back(g_.TransferNode(t), me);
        for (OpId id : {act.slot.op, OpId{act.slot.overlapped}}) {
          if (id == kNoOp) continue;
          const OpId p = Producer(id);
          if (p != kNoOp && problem_.DeviceOf(space_.At(p).stage) == info.device) e.emplace_back(g_.op_action[p], me);
        }
        if (info.collective >= 0) e.emplace_back(g_.CollectiveNode(info.collective), me);
      }
    }
    for (size_t i = 0; i < g_.transfers.size(); ++i) {
      const TransferInfo& t = g_.transfers[i];
      const Node me = g_.TransferNode(static_cast<std::int32_t>(i));
      e.emplace_back(t.send, me);
      e.emplace_back(t.recv, me);
      if (t.prev_at_src >= 0) e.emplace_back(g_.TransferNode(t.prev_at_src), me);
      if (t.prev_at_dst >= 0) e.emplace_back(g_.TransferNode(t.prev_at_dst), me);
    }
    for (size_t i = 0; i < g_.collectives.size(); ++i) {
      const CollectiveInfo& c = g_.collectives[i];
      const Node me = g_.CollectiveNode(static_cast<std::int32_t>(i));
      e.emplace_back(c.action, me);
      if (c.prev >= 0) e.emplace_back(g_.CollectiveNode(c.prev), me);
    }
    const Node n = g_.size();
    g_.first.assign(static_cast<size_t>(n) + 1, 0);
    g_.indegree.assign(static_cast<size_t>(n), 0);
    for (const auto& [from, to] : e) {
      ++g_.first[from + 1];
      ++g_.indegree[to];
    }
    for (Node i = 0; i < n; ++i) g_.first[i + 1] += g_.first[i];
    g_.succ.resize(e.size());
    std::vector<std::int64_t> fill(g_.first.begin(), g_.first.end() - 1);
    for (const auto& [from, to] : e) g_.succ[fill[from]++] = to;
  }

  const Problem& problem_;
  const Schedule& schedule_;
  const OpSpace& space_;
  const CommProgram& program_;
  const CommModel& model_;
  CommGraph g_;
  std::vector<std::int32_t> transfer_of_;  // (microbatch, boundary, direction) -> transfer
};

}  // namespace

Result<CommGraph> CommGraph::Build(const Problem& problem, const Schedule& schedule, const CommProgram& program,
                                   const CommModel& model) {
  return Builder(problem, schedule, program, model).Run();
}

}  // namespace ppsim::comm

// The lowerings of comm_lowering.h. LowerPytorch follows PyTorch's three
// passes action for action, so that its lists equal PyTorch's
// (tests/io/pytorch_lowering_test.cc, tests/io/comm_program_test.cc).
#include "ppsim/comm_lowering.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "ppsim/comm_run.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

using Actions = std::vector<CommAction>;

CommAction Compute(const Slot& slot) {
  CommAction a;
  a.slot = slot;
  return a;
}
CommAction StageAction(CommKind kind, int stage) { return CommAction{kind, {}, stage, -1, -1}; }

void EachOp(const Slot& slot, auto&& f) {
  f(slot.op);
  if (slot.pair()) f(OpId{slot.overlapped});
}

// Pass 1. For each slot i, the next `count` distinct stages from i on; a
// pair adds both halves' stages before the count is checked, as PyTorch's
// does. Computed for every i in one pass from the end (a scan from each i
// runs to the end of the queue whenever the device has fewer than `count`
// stages left: quadratic): a device has few stages, each one's first slot
// at or after i is kept, and the answer is those stages by that slot (a
// pair's first half first), whole slots taken until `count` is reached.
std::vector<std::vector<int>> EveryNextStages(const OpSpace& space, const std::vector<Slot>& slots, size_t count) {
  struct First {
    int stage;
    size_t slot;
    int half;  // 0: the slot's op, 1: its pair's other half
  };
  std::vector<First> first, order;
  std::vector<std::vector<int>> out(slots.size());
  for (size_t i = slots.size(); i-- > 0;) {
    int half = 0;
    EachOp(slots[i], [&](OpId id) {
      const int s = space.At(id).stage;
      auto at = std::find_if(first.begin(), first.end(), [s](const First& f) { return f.stage == s; });
      if (at == first.end()) {
        first.push_back({s, i, half});
      } else if (at->slot != i) {  // a pair's two halves on one stage: the first counts
        *at = {s, i, half};
      }
      ++half;
    });
    order = first;
    std::sort(order.begin(), order.end(),
              [](const First& a, const First& b) { return a.slot != b.slot ? a.slot < b.slot : a.half < b.half; });
    std::vector<int>& next = out[i];
    for (size_t k = 0; k < order.size() && next.size() < count;)
      for (const size_t slot = order[k].slot; k < order.size() && order[k].slot == slot; ++k)
        next.push_back(order[k].stage);
  }
  return out;
}

Actions UnshardReshard(const OpSpace& space, const std::vector<Slot>& slots) {
  constexpr size_t kMaxActiveStages = 3;  // PyTorch's default
  Actions out;
  std::set<int> active;
  const std::vector<std::vector<int>> every = EveryNextStages(space, slots, kMaxActiveStages);
  for (size_t i = 0; i < slots.size(); ++i) {
    const std::vector<int>& next = every[i];
    std::vector<int> evict;
    for (int s : active)
      if (std::find(next.begin(), next.end(), s) == next.end()) evict.push_back(s);
    for (int s : evict) {
      active.erase(s);
      out.push_back(StageAction(CommKind::kReshard, s));
    }
    for (int s : next)
      if (active.insert(s).second) out.push_back(StageAction(CommKind::kUnshard, s));
    out.push_back(Compute(slots[i]));
  }
  for (int s : active) out.push_back(StageAction(CommKind::kReshard, s));
  return out;
}

// Pass 2: after the M-th W or full backward of a stage.
Actions ReduceGrad(const Schedule& schedule, const Actions& in, int microbatches) {
  Actions out;
  std::vector<int> count(schedule.space.stages(), 0);
  for (const CommAction& a : in) {
    out.push_back(a);
    if (a.kind != CommKind::kCompute) continue;
    EachOp(a.slot, [&](OpId id) {
      const Op op = schedule.space.At(id);
      const bool full_b = op.kind == OpKind::kB && (!schedule.split_backward || a.slot.full);
      if ((op.kind == OpKind::kW || full_b) && ++count[op.stage] == microbatches)
        out.push_back(StageAction(CommKind::kReduceGrad, op.stage));
    });
  }
  return out;
}

// Pass 3.
class SendRecv {
 public:
  SendRecv(const Problem& problem, const OpSpace& space)
      : problem_(problem), space_(space), available_(static_cast<size_t>(space.size()), 0) {}

  Result<CommProgram> Run(const std::vector<Actions>& ranks) {
    CommProgram out;
    out.devices.resize(ranks.size());
    std::vector<size_t> at(ranks.size(), 0);
    for (bool left = true; left;) {
      bool progress = false;
      left = false;
      for (size_t r = 0; r < ranks.size(); ++r) {
        if (at[r] == ranks[r].size()) continue;
        const CommAction& a = ranks[r][at[r]];
        if (!Ready(a)) {
          left = true;
          continue;
        }
        out.devices[r].push_back(a);
        if (a.kind == CommKind::kCompute) EachOp(a.slot, [&](OpId id) { Produced(id, static_cast<int>(r), out); });
        progress = true;
        if (++at[r] < ranks[r].size()) left = true;
      }
      if (left && !progress) return Stuck(ranks, at);
    }
    return out;
  }

 private:
  // Its input received on this rank or made here; a last stage's B and a W
  // are placed without looking, as PyTorch's check does.
  bool Ready(const CommAction& a) const {
    if (a.kind != CommKind::kCompute) return true;
    bool ok = true;
    EachOp(a.slot, [&](OpId id) {
      const Op op = space_.At(id);
      if (op.kind == OpKind::kF && op.stage != 0) ok = ok && available_[id];
      if (op.kind == OpKind::kB && op.stage != space_.stages() - 1) ok = ok && available_[id];
    });
    return ok;
  }

  void Produced(OpId id, int rank, CommProgram& out) {
    const Op op = space_.At(id);
    const int S = space_.stages();
    const int to = op.kind == OpKind::kF ? op.stage + 1 : op.stage - 1;
    if (op.kind == OpKind::kW || to < 0 || to >= S) return;
    const OpId consumer = space_.Id(op.kind, op.microbatch, to);
    available_[consumer] = 1;
    if (problem_.DeviceOf(to) == rank) return;  // the turn of a V: no comm
    const bool f = op.kind == OpKind::kF;
    out.devices[rank].push_back({f ? CommKind::kSendF : CommKind::kSendB, {}, op.stage, op.microbatch, -1});
    out.devices[problem_.DeviceOf(to)].push_back({f ? CommKind::kRecvF : CommKind::kRecvB, {}, to, op.microbatch, -1});
  }

  Error Stuck(const std::vector<Actions>& ranks, const std::vector<size_t>& at) const {
    std::string waits;
    for (size_t r = 0; r < ranks.size(); ++r) {
      if (at[r] == ranks[r].size()) continue;
      waits += (waits.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + " waits to place " +
               CommActionName(space_, ranks[r][at[r]]);
    }
    return Fail(ErrorCode::kDeadlock,
                "cannot lower to PyTorch's runtime order (its \"Malformed compute schedule\"): no rank can go on, "
                "each next action's input is neither received nor local: " + waits);
  }

  const Problem& problem_;
  const OpSpace& space_;
  std::vector<char> available_;  // by OpId: its input is received or local
};

// The device that sends what a RECV receives.
int SenderOf(const Problem& problem, const CommAction& a) {
  return problem.DeviceOf(a.kind == CommKind::kRecvF ? a.stage - 1 : a.stage + 1);
}
int ReceiverOf(const Problem& problem, const CommAction& a) {
  return problem.DeviceOf(a.kind == CommKind::kSendF ? a.stage + 1 : a.stage - 1);
}

bool Consumes(const OpSpace& space, const Slot& slot, const CommAction& recv) {
  bool yes = false;
  EachOp(slot, [&](OpId id) {
    const Op op = space.At(id);
    yes = yes || (op.stage == recv.stage && op.microbatch == recv.microbatch &&
                  ((recv.kind == CommKind::kRecvF && op.kind == OpKind::kF) ||
                   (recv.kind == CommKind::kRecvB && op.kind == OpKind::kB)));
  });
  return yes;
}

}  // namespace

Result<CommProgram> LowerPytorch(const Problem& problem, const Schedule& schedule) {
  if (schedule.space.split() != 0)
    return Fail(ErrorCode::kPrecondition, "PyTorch's runtime cannot run " + schedule.name +
                                              ": its two pipelines (DualPipe) have no PyTorch schedule; use dualpipev");
  std::vector<Actions> ranks;
  for (const std::vector<Slot>& queue : schedule.devices)
    ranks.push_back(ReduceGrad(schedule, UnshardReshard(schedule.space, queue), problem.M));
  return SendRecv(problem, schedule.space).Run(ranks);
}

CommProgram DeferRecvs(const Problem& problem, const Schedule& schedule, const CommProgram& eager) {
  CommProgram out;
  for (size_t d = 0; d < eager.devices.size(); ++d) {
    Actions& list = out.devices.emplace_back();
    Actions pending;
    auto flush = [&](auto&& which) {
      Actions keep;
      for (const CommAction& r : pending) (which(r) ? list : keep).push_back(r);
      pending = std::move(keep);
    };
    for (const CommAction& a : eager.devices[d]) {
      if (a.kind == CommKind::kRecvF || a.kind == CommKind::kRecvB) {
        pending.push_back(a);
        continue;
      }
      if (a.kind == CommKind::kCompute) flush([&](const CommAction& r) { return Consumes(schedule.space, a.slot, r); });
      if (a.kind == CommKind::kSendF || a.kind == CommKind::kSendB) {
        const int peer = ReceiverOf(problem, a);
        if (static_cast<int>(d) < peer) flush([&](const CommAction& r) { return SenderOf(problem, r) == peer; });
      }
      list.push_back(a);
    }
    list.insert(list.end(), pending.begin(), pending.end());
  }
  return out;
}

Result<CommProgram> LowerComms(const Problem& problem, const Schedule& schedule) {
  switch (problem.comms.order) {
    case CommOrder::kNone:
    case CommOrder::kAdjacent: return LowerAdjacent(problem, schedule);
    case CommOrder::kPytorch: return LowerPytorch(problem, schedule);
    case CommOrder::kMegatron: return LowerMegatron(problem, schedule);
    case CommOrder::kMegatronOverlap:
      if (problem.v == 1)  // schedules.py, forward_backward_pipelining_without_interleaving
        return Fail(ErrorCode::kPrecondition,
                    "--comms megatron-overlap: Megatron-LM runs overlap_p2p_comm only in its interleaved loop (v > 1; "
                    "its 1F1B loop raises \"Non-interleaved pipeline parallelism does not support overlapping p2p "
                    "communication\"): " + schedule.name + " has one stage per device");
      return LowerMegatronInterleaved(problem, schedule, true);
    case CommOrder::kDualPipe: return LowerDualPipe(problem, schedule);
    case CommOrder::kPytorchDeferred: {
      Result<CommProgram> eager = LowerPytorch(problem, schedule);
      if (!eager) return eager.error();
      return DeferRecvs(problem, schedule, *eager);
    }
  }
  return LowerAdjacent(problem, schedule);
}

Result<Timeline> PlaceRun(const Problem& problem, Schedule schedule) {
  if (!problem.comms.enabled()) return Place(problem, std::move(schedule));
  Result<CommProgram> program = LowerComms(problem, schedule);
  if (!program) return program.error();
  Result<CommRun> run = RunComms(problem, schedule, *program, problem.comms);
  if (!run) return run.error();
  Timeline t = std::move(run->timeline);
  t.comms = std::make_shared<const CommFigures>(std::move(static_cast<CommFigures&>(*run)));
  return t;
}

}  // namespace ppsim

// LowerMegatronInterleaved: Megatron-LM's interleaved loop
// (forward_backward_pipelining_with_interleaving), with and without
// overlap_p2p_comm, as comm_lowering.h says.
//
// The loop is lock-step: iteration k of every rank runs the k-th entry of
// one table, and each p2p call after a compute receives what the peer sends
// in its matching call, NCCL pairing a link's sends and receives in posting
// order. So rank d > 0 receives at forward iteration k what rank d-1 sends
// at k+1 (the first one came in recv_forward before the loop): the input
// of its own forward k+1. Rank 0 is P-1 iterations ahead of rank P-1 and
// receives at k what rank P-1 sent at k-(P-1), unless that was its last
// chunk (recv_tensor_from_previous_stage). The backward mirrors it, rank
// P-1 leading.
#include <algorithm>
#include <string>

#include "interleaved_order.h"
#include "pytorch_rounds.h"
#include "ppsim/comm_lowering.h"

namespace ppsim {
namespace {

class Lowering {
 public:
  // REQUIRES: `schedule` is Megatron's interleaved order with this group.
  Lowering(const Problem& problem, const Schedule& schedule, int group)
      : problem_(problem), space_(schedule.space), schedule_(schedule), ranks_(schedule.devices.size()) {
    for (size_t d = 0; d < ranks_.size(); ++d) {
      Rank& r = ranks_[d];
      for (const Slot& slot : schedule.devices[d]) {
        const Op op = space_.At(slot.op);
        (op.kind == OpKind::kF ? r.f : r.b).push_back(op);
      }
      // get_pp_rank_microbatches' num_warmup_microbatches
      r.warmup = std::min(2 * (problem.P - 1 - static_cast<int>(d)) + (problem.v - 1) * group, Total(d));
    }
  }

  // Rank d's program, by the loop's three phases (the schedule's queue is
  // Megatron's order: `warmup` forwards, then forward k+warmup with
  // backward k, then the remaining backwards).
  std::vector<CommAction> Program(int d, bool overlap) {
    const int T = Total(d), warmup = ranks_[d].warmup, steady = T - warmup;
    const bool even = d % 2 == 0;  // _p2p_ops: even ranks send first, odd ranks receive first
    out_.clear();
    next_slot_ = 0;
    queue_ = &schedule_.devices[d];
    Call(true, {RecvF(d, -1)});  // recv_forward before the loop
    for (int k = 0; k < warmup; ++k) {
      Compute();
      if (k == warmup - 1 && steady > 0 && !overlap) {  // send_forward_backward_recv_forward_backward
        Call(true, {RecvF(d, k), SendF(d, k), RecvB(d, -1)});
        continue;
      }
      // send_forward_recv_forward, blocking
      Call(true, overlap && even ? List{SendF(d, k), RecvF(d, k)} : List{RecvF(d, k), SendF(d, k)});
      if (overlap && k == warmup - 1 && steady > 0) Call(false, {RecvB(d, -1)});  // send_backward_recv_backward
    }
    for (int k = 0; k < steady; ++k) {
      const int f = warmup + k;
      Compute();
      if (overlap) Call(false, even ? List{SendF(d, f), RecvF(d, f)} : List{RecvF(d, f), SendF(d, f)});
      Compute();
      if (overlap) Call(false, even ? List{SendB(d, k), RecvB(d, k)} : List{RecvB(d, k), SendB(d, k)});
      else Call(true, {SendB(d, k), RecvF(d, f), SendF(d, f), RecvB(d, k)});  // _batched_p2p_ops' order
    }
    if (steady == 0) Call(true, {RecvB(d, -1)});  // recv_backward: every forward was in the warm-up
    for (int k = steady; k < T; ++k) {
      Compute();
      // send_backward_recv_backward, blocking
      Call(true, overlap && !even ? List{RecvB(d, k), SendB(d, k)} : List{SendB(d, k), RecvB(d, k)});
    }
    return out_;
  }

 private:
  using List = std::vector<CommAction>;
  struct Rank {
    std::vector<Op> f, b;  // its forwards and backwards, in order
    int warmup = 0;        // forwards before its first backward
  };

  int P() const { return problem_.P; }
  int Chunk(const Op& op) const { return op.stage / P(); }
  int Total(int d) const { return static_cast<int>(ranks_[d].f.size()); }

  void Compute() {
    CommAction a;
    a.slot = (*queue_)[next_slot_++];
    out_.push_back(a);
  }

  // One p2p call: its actions (kCompute = nothing to do) in posting order,
  // blocking (one batch the rank waits for) or async.
  void Call(bool blocking, List actions) {
    bool any = false;
    for (CommAction& a : actions) {
      if (a.kind == CommKind::kCompute) continue;
      a.batch = blocking ? batch_ : -1;
      out_.push_back(a);
      any = true;
    }
    if (any && blocking) ++batch_;
  }

  static CommAction Action(CommKind kind, const Op& op) { return {kind, {}, op.stage, op.microbatch, -1}; }

  // The SEND of forward k's output, or none on the last stage.
  CommAction SendF(int d, int k) const {
    const Op& op = ranks_[d].f[k];
    return op.stage == space_.stages() - 1 ? CommAction{} : Action(CommKind::kSendF, op);
  }
  // The SEND of backward k's input gradient, or none on stage 0.
  CommAction SendB(int d, int k) const {
    const Op& op = ranks_[d].b[k];
    return op.stage == 0 ? CommAction{} : Action(CommKind::kSendB, op);
  }
  // What rank d receives at forward iteration k (k = -1: recv_forward
  // before the loop), or none.
  CommAction RecvF(int d, int k) const {
    if (k + 1 >= Total(d) || P() == 1) return {};  // the last iteration receives nothing
    if (d > 0) return Action(CommKind::kRecvF, ranks_[d].f[k + 1]);
    const int j = k - (P() - 1);  // rank P-1's iteration whose output rank 0 receives now
    if (j < 0) return {};
    Op consumer = ranks_[P() - 1].f[j];
    if (Chunk(consumer) == problem_.v - 1) return {};  // its last chunk sends nothing
    ++consumer.stage;
    return Action(CommKind::kRecvF, consumer);
  }
  // What rank d receives at backward iteration k (k = -1: before its
  // first backward), or none.
  CommAction RecvB(int d, int k) const {
    if (k + 1 >= Total(d) || P() == 1) return {};
    if (d < P() - 1) return Action(CommKind::kRecvB, ranks_[d].b[k + 1]);
    const int j = k - (P() - 1);  // rank 0's iteration whose input gradient rank P-1 receives now
    if (j < 0) return {};
    Op consumer = ranks_[0].b[j];
    if (Chunk(consumer) == 0) return {};  // its first chunk sends nothing
    --consumer.stage;
    return Action(CommKind::kRecvB, consumer);
  }

  const Problem& problem_;
  const OpSpace& space_;
  const Schedule& schedule_;
  std::vector<Rank> ranks_;
  const std::vector<Slot>* queue_ = nullptr;
  size_t next_slot_ = 0;
  std::vector<CommAction> out_;
  std::int32_t batch_ = 0;
};

// The group Megatron's loop would run `schedule` with, or a kPrecondition
// error naming what it does not run: anything but Megatron's interleaved
// order (stage s on device s mod P, F and a full backward).
Result<int> MegatronOrder(const Problem& problem, const Schedule& schedule, bool overlap) {
  const std::string rule = overlap ? "megatron-overlap" : "megatron";
  auto refuse = [&](const std::string& why) {
    return Fail(ErrorCode::kPrecondition, "--comms " + rule +
                                              " lowers Megatron-LM's interleaved loop (Megatron's interleaved order, "
                                              "F and a full backward B): " + schedule.name + " " + why);
  };
  if (problem.placement != Placement::kLoop) return refuse("does not place stage s on device s mod P");
  if (schedule.split_backward) return refuse("splits its backward into B and W");
  const int group = problem.group != 0 ? problem.group : PytorchRoundSize(problem);
  if (group < problem.P || group > problem.M || (problem.M % group != 0 && problem.M % group < problem.P))
    return refuse("runs groups of " + std::to_string(group) + " microbatches, which Megatron refuses at P = " +
                  std::to_string(problem.P) + ", M = " + std::to_string(problem.M) + " (interleaved --group)");
  const Schedule megatron = InterleavedOrder(problem, group, 0, false);
  for (size_t d = 0; d < schedule.devices.size(); ++d) {
    if (schedule.devices[d].size() != megatron.devices[d].size())
      return refuse("runs " + std::to_string(schedule.devices[d].size()) + " ops on device " + std::to_string(d) +
                    ", Megatron's order " + std::to_string(megatron.devices[d].size()));
    for (size_t i = 0; i < schedule.devices[d].size(); ++i) {
      const Slot& slot = schedule.devices[d][i];
      if (slot.pair()) return refuse("overlaps F and B in pairs");
      if (i >= megatron.devices[d].size() || !(slot.op == megatron.devices[d][i].op))
        return refuse("runs " + OpName(schedule.space.At(slot.op)) + " on device " + std::to_string(d) +
                      " where Megatron's order runs " +
                      (i < megatron.devices[d].size() ? OpName(megatron.space.At(megatron.devices[d][i].op))
                                                      : std::string("nothing")));
    }
  }
  return group;
}

}  // namespace

Result<CommProgram> LowerMegatronInterleaved(const Problem& problem, const Schedule& schedule, bool overlap) {
  Result<int> group = MegatronOrder(problem, schedule, overlap);
  if (!group) return group.error();
  Lowering lowering(problem, schedule, *group);
  CommProgram program;
  for (int d = 0; d < problem.P; ++d) program.devices.push_back(lowering.Program(d, overlap));
  return program;
}

}  // namespace ppsim

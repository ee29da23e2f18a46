// LowerDualPipe: DeepSeek's DualPipe and DualPipeV step() as the program
// their ranks run (comm_lowering.h), read from deepseek-ai/DualPipe @
// 3da1bbe (dualpipe/dualpipe.py and dualpipe/dualpipev.py, class DualPipe
// and DualPipeV).
//
// step() calls _forward_chunk, _backward_chunk, _forward_backward_chunk and
// _weight_chunk in its eight steps (dual_order.h), and between them a few
// bare _recv_forward/_send_forward/_send_backward calls. Each _recv_* and
// _send_* appends a P2P op to the rank's comm_ops, unless the stage has no
// peer (a chain's end, or the turn of DualPipeV's V on its last rank). Each
// chunk call first runs _commit_and_wait_comm — batch_isend_irecv of
// everything appended so far, then a wait on every request: one blocking
// batch, skipped when nothing is pending — then its compute, then appends
// its SENDs. So a SEND is posted at the next chunk call's commit, with the
// RECVs that call appends, and a RECV appended outside a chunk call is
// posted one compute early.
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "dual_order.h"
#include "ppsim/comm_lowering.h"

namespace ppsim {
namespace {

std::string SlotName(const OpSpace& space, const Slot& slot) {
  std::string name = OpName(space.At(slot.op));
  if (slot.pair()) name += "&" + OpName(space.At(slot.overlapped));
  return name + (slot.full ? " (full backward)" : "");
}

// One rank's step(), call by call. The computes come from the device's
// queue, which must hold what step() computes next: ppsim's order checked
// against DeepSeek's loops as the program is written.
class StepCalls {
 public:
  StepCalls(const Problem& problem, const Schedule& schedule, int device, const DualRank& rank, bool v,
            std::int32_t& batch)
      : problem_(problem),
        space_(schedule.space),
        queue_(schedule.devices[device]),
        device_(device),
        rank_(rank),
        v_(v),
        batch_(batch) {}

  Error Run(std::vector<CommAction>& out) {
    out_ = &out;
    const int n = rank_.ranks, r = rank_.rank, c = rank_.chunks;
    // DualPipe's is_middle_rank, DualPipeV's is_last_rank: where the two
    // phases meet, and step 4 runs its first F0 and B1 apart.
    const bool middle = r == n - 1;
    for (int i = 0; i < 2 * (n - r - 1); ++i) ForwardChunk(0);  // step 1: nF0
    RecvF(0);  // step 2: nF0F1; each next F0's RECV goes with F1's batch
    for (int i = 0; i < r + 1; ++i) {
      ForwardChunk(0, false, !v_ && middle);  // DualPipe's middle ranks send F0 at once
      RecvF(0);
      ForwardChunk(1, true, !middle || i < r);  // the middle rank keeps its last F1's SEND for step 4
      if (v_ || !middle) SendF(0);
    }
    for (int i = 0; i < n - r - 1; ++i) {  // step 3: nB1W1F1; F1's RECV goes with W's batch
      BackwardChunk(1, true);
      RecvF(1);
      WeightChunk();
      ForwardChunk(1, false);
    }
    for (int i = 0; i < c - 2 * n + r + 1; ++i) {  // step 4: nF0B1F1B0
      if (i == 0 && middle) {
        ForwardChunk(0, false, false);
        SendF(1);
        BackwardChunk(1, false, true, false);
        SendF(0);
        SendB(1);
      } else {
        ForwardBackwardChunk(0, 1, i > 0);
      }
      ForwardBackwardChunk(1, 0);
    }
    for (int i = 0; i < n - r - 1; ++i) {  // step 5: nB1F1B0
      BackwardChunk(1);
      ForwardBackwardChunk(1, 0);
    }
    bool zb = false;  // step 6: nB1B0, the second half zero-bubble
    for (int i = 0; i < r + 1; ++i) {
      if (i == (r + 1) / 2 && r % 2 == 1) zb = true;
      BackwardChunk(1, zb);
      if (i == (r + 1) / 2 && r % 2 == 0) zb = true;
      BackwardChunk(0, zb);
    }
    for (int i = 0; i < n - r - 1; ++i) {  // step 7: nWB0
      WeightChunk();
      BackwardChunk(0, true);
    }
    for (int i = 0; i < r + 1; ++i) WeightChunk();  // step 8: nW
    Commit();
    if (error_.ok() && next_ < queue_.size())
      Mismatch("its queue goes on with " + SlotName(space_, queue_[next_]) + " after step() ends");
    return error_;
  }

 private:
  // The chunk calls.
  void ForwardChunk(int phase, bool recv = true, bool send = true) {
    if (recv) RecvF(phase);
    Commit();
    ComputeF(phase);
    if (send) SendF(phase);
  }
  void BackwardChunk(int phase, bool zb = false, bool recv = true, bool send = true) {
    if (recv) RecvB(phase);
    Commit();
    ComputeB(phase, zb);
    if (send) SendB(phase);
  }
  void ForwardBackwardChunk(int phase0, int phase1, bool recv0 = true) {
    if (recv0) RecvF(phase0);
    RecvB(phase1);
    Commit();
    if (problem_.overlap) {  // one compound op; without the model's overlapped call, F then the full B
      Expect({space_.Id(OpKind::kF, Next(f_, phase0), rank_.stage[phase0]),
              space_.Id(OpKind::kB, Next(b_, phase1), rank_.stage[phase1]), true});
    } else {
      ComputeF(phase0);
      ComputeB(phase1, false);
    }
    SendF(phase0);
    SendB(phase1);
  }
  void WeightChunk() {
    Commit();
    if (weights_.empty()) return Mismatch("step() pops an empty WeightGradStore");
    Expect({space_.Id(OpKind::kW, weights_.front().first, weights_.front().second), kNoOp, false});
    weights_.pop_front();
  }

  // The appends: none where the stage's neighbour is on this device or absent.
  bool Peer(int stage, int step) const {
    const int to = stage + step;
    const bool end = step < 0 ? space_.IsFirstStage(stage) : space_.IsLastStage(stage);
    return !end && problem_.DeviceOf(to) != device_;
  }
  void Append(CommKind kind, int phase, int (&count)[2]) {
    pending_.push_back({kind, {}, rank_.stage[phase], Next(count, phase), -1});
  }
  void RecvF(int phase) {
    if (Peer(rank_.stage[phase], -1)) Append(CommKind::kRecvF, phase, recv_f_);
  }
  void SendF(int phase) {
    if (Peer(rank_.stage[phase], +1)) Append(CommKind::kSendF, phase, send_f_);
  }
  void RecvB(int phase) {
    if (Peer(rank_.stage[phase], +1)) Append(CommKind::kRecvB, phase, recv_b_);
  }
  void SendB(int phase) {
    if (Peer(rank_.stage[phase], -1)) Append(CommKind::kSendB, phase, send_b_);
  }
  // _commit_and_wait_comm.
  void Commit() {
    if (pending_.empty()) return;
    for (CommAction& a : pending_) {
      a.batch = batch_;
      out_->push_back(a);
    }
    ++batch_;
    pending_.clear();
  }

  // The computes.
  int Next(int (&count)[2], int phase) { return rank_.first[phase] + count[phase]++; }
  void ComputeF(int phase) { Expect({space_.Id(OpKind::kF, Next(f_, phase), rank_.stage[phase]), kNoOp, false}); }
  void ComputeB(int phase, bool zb) {
    const int m = Next(b_, phase), s = rank_.stage[phase];
    Expect({space_.Id(OpKind::kB, m, s), kNoOp, !zb});
    if (zb) weights_.emplace_back(m, s);  // its W is queued (WeightGradStore)
  }
  void Expect(const Slot& want) {
    if (!error_.ok()) return;
    if (next_ >= queue_.size() || !(queue_[next_] == want))
      return Mismatch("step() computes " + SlotName(space_, want) + " where its queue has " +
                      (next_ < queue_.size() ? SlotName(space_, queue_[next_]) : std::string("nothing more")));
    CommAction compute;
    compute.slot = want;
    out_->push_back(compute);
    ++next_;
  }
  void Mismatch(const std::string& what) {
    if (error_.ok())
      error_ = Fail(ErrorCode::kPrecondition, "--comms dualpipe runs DeepSeek's step(), but device " +
                                                  std::to_string(device_) + "'s order is not its: " + what);
  }

  const Problem& problem_;
  const OpSpace& space_;
  const std::vector<Slot>& queue_;
  const int device_;
  const DualRank rank_;
  const bool v_;
  std::int32_t& batch_;
  std::vector<CommAction>* out_ = nullptr;
  std::vector<CommAction> pending_;  // comm_ops
  size_t next_ = 0;                  // the queue's next slot
  // step()'s chunk counters, per phase (current_*_chunk_id).
  int f_[2] = {0, 0}, b_[2] = {0, 0}, recv_f_[2] = {0, 0}, send_f_[2] = {0, 0}, recv_b_[2] = {0, 0},
      send_b_[2] = {0, 0};
  std::deque<std::pair<int, int>> weights_;  // (microbatch, stage) of each queued W, oldest first
  Error error_ = Error::Ok();
};

}  // namespace

Result<CommProgram> LowerDualPipe(const Problem& problem, const Schedule& schedule) {
  const bool v = schedule.name == "dualpipev";
  if (!v && schedule.name != "dualpipe")
    return Fail(ErrorCode::kPrecondition, "--comms dualpipe lowers DeepSeek's DualPipe and DualPipeV step(): " +
                                              schedule.name + " is neither dualpipe nor dualpipev");
  if (problem.slices != 1 || problem.recompute != RecomputeMode::kOff)
    return Fail(ErrorCode::kPrecondition, "--comms dualpipe lowers DeepSeek's step(), which has no " +
                                              std::string(problem.slices != 1 ? "sequence slices" : "recompute op") +
                                              ": " + schedule.name + " with them is not its order");
  CommProgram program;
  program.devices.resize(schedule.devices.size());
  std::int32_t batch = 0;
  for (int d = 0; d < problem.P; ++d) {
    StepCalls rank(problem, schedule, d, v ? DualPipeVRank(problem, d) : DualPipeRank(problem, d), v, batch);
    if (Error e = rank.Run(program.devices[d]); !e.ok()) return e;
  }
  return program;
}

}  // namespace ppsim

// LowerMegatron: Megatron-LM's 1F1B loop without overlap_p2p_comm
// (forward_backward_pipelining_without_interleaving with
// p2p_communication's blocking calls), as comm_lowering.h says; v > 1 is
// its interleaved loop (comm_megatron_interleaved.cc).
#include <string>

#include "ppsim/comm_lowering.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

bool CrossesDevices(const Problem& problem, int from, int to) { return problem.DeviceOf(from) != problem.DeviceOf(to); }

// The RECV an op needs before it, or none (kCompute).
CommAction RecvOf(const Problem& problem, const OpSpace& space, const Op& op) {
  if (op.kind == OpKind::kF && !space.IsFirstStage(op.stage) && CrossesDevices(problem, op.stage - 1, op.stage))
    return {CommKind::kRecvF, {}, op.stage, op.microbatch, -1};
  if (op.kind == OpKind::kB && !space.IsLastStage(op.stage) && CrossesDevices(problem, op.stage + 1, op.stage))
    return {CommKind::kRecvB, {}, op.stage, op.microbatch, -1};
  return {};
}

// The SEND an op makes after it, or none (kCompute).
CommAction SendOf(const Problem& problem, const OpSpace& space, const Op& op) {
  if (op.kind == OpKind::kF && !space.IsLastStage(op.stage) && CrossesDevices(problem, op.stage, op.stage + 1))
    return {CommKind::kSendF, {}, op.stage, op.microbatch, -1};
  if (op.kind == OpKind::kB && !space.IsFirstStage(op.stage) && CrossesDevices(problem, op.stage, op.stage - 1))
    return {CommKind::kSendB, {}, op.stage, op.microbatch, -1};
  return {};
}

}  // namespace

Result<CommProgram> LowerMegatron(const Problem& problem, const Schedule& schedule) {
  const OpSpace& space = schedule.space;
  auto refuse = [&](const std::string& why) {
    return Fail(ErrorCode::kPrecondition, "--comms megatron lowers Megatron-LM's 1F1B loop (one stage per device, "
                                          "F and a full backward B): " + schedule.name + " " + why);
  };
  if (problem.v != 1) return LowerMegatronInterleaved(problem, schedule, false);
  if (space.split() != 0) return refuse("has more than one stage per device");
  if (schedule.split_backward) return refuse("splits its backward into B and W");
  CommProgram program;
  program.devices.resize(schedule.devices.size());
  std::int32_t batch = 0;
  for (size_t d = 0; d < schedule.devices.size(); ++d) {
    std::vector<CommAction>& out = program.devices[d];
    const std::vector<Slot>& queue = schedule.devices[d];
    CommAction pending_send;  // the previous op's SEND, not yet posted
    OpKind previous = OpKind::kF;
    for (size_t i = 0; i < queue.size(); ++i) {
      const Slot& slot = queue[i];
      if (slot.pair()) return refuse("overlaps F and B in pairs");
      const Op op = space.At(slot.op);
      if (op.kind != OpKind::kF && op.kind != OpKind::kB) return refuse("has " + OpName(op) + ", neither F nor B");
      CommAction recv = RecvOf(problem, space, op);
      // Megatron fuses the SEND after an F with the RECV before the B that
      // follows it (send_forward_recv_backward), and the SEND after a B with
      // the RECV before the next F (send_backward_recv_forward): one
      // blocking batch. Elsewhere each call blocks alone.
      const bool fused = i > 0 && op.kind != previous;
      if (pending_send.kind != CommKind::kCompute) {
        pending_send.batch = batch++;
        out.push_back(pending_send);
        if (fused && recv.kind != CommKind::kCompute) recv.batch = pending_send.batch;
      }
      if (recv.kind != CommKind::kCompute) {
        if (recv.batch < 0) recv.batch = batch++;
        out.push_back(recv);
      }
      CommAction compute;
      compute.slot = slot;
      out.push_back(compute);
      pending_send = SendOf(problem, space, op);
      previous = op.kind;
    }
    if (pending_send.kind != CommKind::kCompute) {
      pending_send.batch = batch++;
      out.push_back(pending_send);
    }
  }
  return program;
}

}  // namespace ppsim

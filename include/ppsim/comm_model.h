// Communication as ops (docs/comms.md). Off by default: without a
// CommProgram nothing here runs and Place() adds a latency to cross-device
// dependencies, as it always has. With one, each device runs a program: its
// compute slots in the schedule's order with SEND_F/RECV_F/SEND_B/RECV_B,
// UNSHARD/RESHARD and REDUCE_GRAD between them, as a runtime's queue holds
// them (PyTorch's _PipelineScheduleRuntime, Megatron's p2p calls).
//
// A transfer is named by (direction, stage boundary, microbatch): the
// forward transfer of boundary s carries F(m,s)'s output to stage s+1, the
// backward one B(m,s+1)'s input gradient to stage s. Its SEND sits on the
// producing stage's device and its RECV on the consuming one's, with
// PyTorch's naming: SEND_F on stage s, RECV_F on stage s+1, SEND_B on stage
// s+1, RECV_B on stage s.
//
// The transfer starts at its rendezvous (both sides posted, as NCCL's
// point-to-point calls meet) and lasts latency + ceil(bytes / bandwidth) on
// its directed link. Each device posts its point-to-point calls on one
// serialized stream (PyTorch #188833): a pending RECV holds back every call
// posted after it on that device, SENDs included, until its transfer
// completes — head-of-line blocking. A SEND is handed over and holds back
// nothing. With `concurrency` c, a call waits only for the c-th latest RECV
// posted before it on its device.
#pragma once

#include <cstdint>
#include <vector>

#include "ppsim/comm_options.h"
#include "ppsim/error.h"
#include "ppsim/op.h"
#include "ppsim/schedule.h"

namespace ppsim {

enum class CommKind : std::uint8_t {
  kCompute,     // a Slot of the schedule
  kSendF,       // stage s sends F(m,s)'s output to stage s+1
  kRecvF,       // stage s receives F(m,s-1)'s output
  kSendB,       // stage s sends B(m,s)'s input gradient to stage s-1
  kRecvB,       // stage s receives B(m,s+1)'s input gradient
  kUnshard,     // FSDP all-gather of stage s's parameters (the collective stream)
  kReshard,     // frees them (no time)
  kReduceGrad,  // reduce-scatter of stage s's gradients (the collective stream)
};

// "SEND_F", "RECV_B", "UNSHARD", ...; "" for kCompute.
const char* CommKindName(CommKind kind);
bool IsTransferKind(CommKind kind);  // SEND_* or RECV_*

struct CommAction {
  CommKind kind = CommKind::kCompute;
  Slot slot;               // kCompute only
  std::int32_t stage = 0;  // comm actions: the stage the action belongs to (PyTorch's stage_index)
  std::int32_t microbatch = -1;  // SEND/RECV; -1 for UNSHARD, RESHARD, REDUCE_GRAD
  // Posting (docs/comms.md): -1 = async, the action posts and returns. ≥ 0:
  // a blocking batch; consecutive actions with the same id post together
  // and the device waits for all of their transfers before its next action.
  std::int32_t batch = -1;
};

// One program per device, in the order its runtime issues them.
struct CommProgram {
  std::vector<std::vector<CommAction>> devices;
  std::int64_t action_count() const;
};

// The simplest lowering: each RECV right before its consumer, each SEND
// right after its producer, all async (Megatron's order without
// overlap_p2p_comm, and PyTorch's deferred RECVs without the pair rule).
// A RECV posted there meets its SEND only when the device reaches it, so
// the latency is exposed; with every RECV posted at the start instead, any
// number in flight and no size term, every op lands where Place() with
// comm = latency puts it: the latency model is the limit case.
CommProgram LowerAdjacent(const Problem& problem, const Schedule& schedule);

}  // namespace ppsim

// Lowerings: a schedule's compute order made into a program with
// communication (comm_model.h), by the rule Problem::comms.order names.
//
// PyTorch's (_PipelineScheduleRuntime._prepare_schedule_with_comms: PyTorch's
// per-rank lists, which io/pytorch_lowering.h writes as PyTorch's CSV):
//   1. per rank, UNSHARD/RESHARD around the stages it computes, at most 3
//      unsharded (max_active_stages), evicted in ascending stage order;
//   2. per rank, REDUCE_GRAD of a stage right after its M-th W or full B;
//   3. across ranks, visited in order, each placing its next action once
//      its input is received or local: a SEND right after the compute that
//      produces it, and the matching RECV appended to the receiver's list at
//      that moment. No comm between stages on one rank.
// Deferred (PyTorch's defer_pp_recv): the same, then each RECV moved to just
// before its consumer, except that the lower rank of a pair posts the RECVs
// from its peer it has deferred before each SEND to that peer.
//
// Where ppsim differs: PyTorch evicts a rank's unsharded stages in the
// iteration order of a Python set of ints; ppsim evicts in ascending stage
// order, which is that order whenever the stage indices are below the set's
// table size (8, or 16 once it has held 3 stages) — every schedule of up to 8
// stages per rank pair.
#pragma once

#include "ppsim/comm_model.h"
#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"
#include "ppsim/timeline.h"

namespace ppsim {

// kPrecondition for DualPipe's two pipelines (no PyTorch schedule has them);
// kDeadlock when no rank can place its next action (PyTorch's "Malformed
// compute schedule"), naming each rank's waiting action.
Result<CommProgram> LowerPytorch(const Problem& problem, const Schedule& schedule);

// Megatron-LM's 1F1B loop without overlap_p2p_comm
// (forward_backward_pipelining_without_interleaving): before each compute
// the RECV of its input, after it the SEND of its output, each a blocking
// call (p2p_communication waits on its requests); where an F is followed by
// a B the F's SEND and the B's RECV are one batch (send_forward_recv_backward),
// and where a B is followed by an F, the B's SEND and the F's RECV
// (send_backward_recv_forward). kPrecondition for what that loop does not
// run: more than one stage per device (the interleaved loop is not lowered
// yet), a split backward (W), R ops, overlapped pairs.
Result<CommProgram> LowerMegatron(const Problem& problem, const Schedule& schedule);

// `eager` (a LowerPytorch program) with its RECVs deferred, as above.
CommProgram DeferRecvs(const Problem& problem, const Schedule& schedule, const CommProgram& eager);

// By problem.comms.order (REQUIRES: enabled()).
Result<CommProgram> LowerComms(const Problem& problem, const Schedule& schedule);

// The schedule placed with its communication when problem.comms is
// enabled (the timeline carries the comm figures, Timeline::comms), else
// Place(): what Simulate() and every run use.
Result<Timeline> PlaceRun(const Problem& problem, Schedule schedule);

}  // namespace ppsim

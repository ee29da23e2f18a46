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
// run: a split backward (W), R ops, overlapped pairs. With v > 1 chunks:
// LowerMegatronInterleaved(problem, schedule, false).
Result<CommProgram> LowerMegatron(const Problem& problem, const Schedule& schedule);

// Megatron-LM's interleaved loop (forward_backward_pipelining_with_
// interleaving), by its lock-step iterations: recv_forward before the loop;
// after each warm-up forward a blocking send_forward_recv_forward (the last
// one also receives the first backward's gradient); in the steady state
// forward then backward, then one blocking call that sends and receives
// both ways; after each cool-down backward a blocking
// send_backward_recv_backward. Each call sends what its compute made and
// receives the input of the rank's next compute of that kind (rank 0 and,
// backward, rank P-1 receive what the other end of the ring sent P-1
// iterations before). With `overlap` (overlap_p2p_comm), the steady state's
// calls are async, one after the forward and one after the backward, each
// receiving one step ahead; the warm-up's last call posts the first
// backward's receive async; each compute waits for its own receive.
// kPrecondition unless the order is Megatron's interleaved order (loop
// placement, F and a full backward, Megatron's group checks).
Result<CommProgram> LowerMegatronInterleaved(const Problem& problem, const Schedule& schedule, bool overlap);

// DeepSeek's DualPipe and DualPipeV step() (deepseek-ai/DualPipe,
// dualpipe/dualpipe.py and dualpipev.py; src/core/comm_dualpipe.cc): the
// RECVs and SENDs each of its chunk calls appends, posted as one blocking
// batch by the _commit_and_wait_comm that opens the next call, computes in
// ppsim's dualpipe/dualpipev order (an overlapped pair stays one slot).
// kPrecondition for any other schedule, naming it, for sequence slices or
// recompute (step() has neither), and for a queue that is not what step()
// computes next, naming the slot.
Result<CommProgram> LowerDualPipe(const Problem& problem, const Schedule& schedule);

// `eager` (a LowerPytorch program) with its RECVs deferred, as above.
CommProgram DeferRecvs(const Problem& problem, const Schedule& schedule, const CommProgram& eager);

// By problem.comms.order (REQUIRES: enabled()).
Result<CommProgram> LowerComms(const Problem& problem, const Schedule& schedule);

// The schedule placed with its communication when problem.comms is
// enabled (the timeline carries the comm figures, Timeline::comms), else
// Place(): what Simulate() and every run use.
Result<Timeline> PlaceRun(const Problem& problem, Schedule schedule);

}  // namespace ppsim

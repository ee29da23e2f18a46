// The communication model's options, a part of every Problem
// (Problem::comms): off (CommOrder::kNone) by default, and then nothing
// changes — a transfer is the latency Problem::comm on its dependency. On,
// every schedule is lowered to a program of SEND/RECV ops (comm_model.h) by
// the named rule and placed by RunComms (comm_run.h; docs/comms.md).
#pragma once

#include <cstdint>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"

namespace ppsim {

// How a schedule's compute order becomes a program with communication.
enum class CommOrder : std::uint8_t {
  kNone,             // off: the latency model (default)
  kPytorch,          // PyTorch's runtime (_add_send_recv): SEND after its compute, RECV appended when the sender runs
  kPytorchDeferred,  // PyTorch's defer_pp_recv: each RECV just before its consumer; the lower rank of a pair
                     // flushes its RECVs before a SEND to the same peer
  kAdjacent,         // each RECV just before its consumer, each SEND just after its producer
  kMegatron,         // Megatron-LM's 1F1B loop: RECV before, SEND after, blocking; an F's SEND with the next B's
                     // RECV (and a B's with the next F's) in one batch; with v > 1 its interleaved loop
  kMegatronOverlap,  // Megatron-LM's interleaved loop with overlap_p2p_comm: the steady state's receives posted
                     // one step ahead, async; refused for v = 1 (Megatron runs it only interleaved)
  kDualPipe,         // DeepSeek's DualPipe/DualPipeV step(): each chunk call commits what is pending as one
                     // blocking batch (_commit_and_wait_comm); dualpipe and dualpipev only
};

// "none", "pytorch", "pytorch-deferred", "adjacent", "megatron", "megatron-overlap", "dualpipe".
const char* CommOrderName(CommOrder order);
// Whether every call of the rule blocks the compute stream until its batch
// completes (megatron, dualpipe); megatron-overlap blocks only outside its
// steady state, the others post async.
bool CommOrderBlocks(CommOrder order);

// When a send's buffer is released.
enum class SendRelease : std::uint8_t {
  kStepEnd,     // PyTorch's runtime: sends are waited after the step's last action (default)
  kCompletion,  // when the transfer completes
};

// The link and collective parameters. Every field states its default. Times
// are in the user's units until ScaleCosts() multiplies them (time_scale).
struct CommModel {
  CommOrder order = CommOrder::kNone;
  Tick latency = 0;               // per transfer
  std::int64_t bandwidth = 0;     // bytes per unit of time on a directed link; 0 = no size term
  int concurrency = 1;            // RECVs a device's stream has in flight before a call waits; 0 = unlimited
  // Bytes of one transfer over boundary s (s → s+1 forward, the same size
  // backward): one value per boundary (S-1), or one for all; empty = 0.
  std::vector<std::int64_t> transfer_bytes;
  Tick unshard = 0;               // an UNSHARD's all-gather (0: parameter bytes ÷ bandwidth)
  Tick reduce_grad = 0;           // a REDUCE_GRAD's reduce-scatter (0: parameter bytes ÷ bandwidth)
  SendRelease send_release = SendRelease::kStepEnd;
  // Ticks per unit of time, set by ScaleCosts() (1 until then): a size term
  // bytes ÷ bandwidth units lasts ceil(bytes · time_scale ÷ bandwidth) ticks.
  std::int64_t time_scale = 1;

  bool enabled() const { return order != CommOrder::kNone; }
  std::int64_t BytesAt(int boundary) const;
  // ceil(bytes · time_scale ÷ bandwidth), 0 without a bandwidth.
  Tick SizeTicks(std::int64_t bytes) const;
};

// kInvalidValue naming the field: negative latency, non-positive bandwidth
// (when given), negative bytes or concurrency, a transfer_bytes list of the
// wrong length.
Error ValidateCommModel(const CommModel& model, int stages);

}  // namespace ppsim

// The comm model's vocabulary, its checks, and the adjacent lowering.
#include "ppsim/comm_model.h"

#include <string>

#include "ppsim/memory_model.h"

namespace ppsim {

const char* CommKindName(CommKind kind) {
  switch (kind) {
    case CommKind::kCompute: return "";
    case CommKind::kSendF: return "SEND_F";
    case CommKind::kRecvF: return "RECV_F";
    case CommKind::kSendB: return "SEND_B";
    case CommKind::kRecvB: return "RECV_B";
    case CommKind::kUnshard: return "UNSHARD";
    case CommKind::kReshard: return "RESHARD";
    case CommKind::kReduceGrad: return "REDUCE_GRAD";
  }
  return "";
}

bool IsTransferKind(CommKind kind) {
  return kind == CommKind::kSendF || kind == CommKind::kRecvF || kind == CommKind::kSendB || kind == CommKind::kRecvB;
}

std::int64_t CommProgram::action_count() const {
  std::int64_t n = 0;
  for (const auto& d : devices) n += static_cast<std::int64_t>(d.size());
  return n;
}

const char* CommOrderName(CommOrder order) {
  switch (order) {
    case CommOrder::kNone: return "none";
    case CommOrder::kPytorch: return "pytorch";
    case CommOrder::kPytorchDeferred: return "pytorch-deferred";
    case CommOrder::kAdjacent: return "adjacent";
    case CommOrder::kMegatron: return "megatron";
    case CommOrder::kMegatronOverlap: return "megatron-overlap";
    case CommOrder::kDualPipe: return "dualpipe";
  }
  return "none";
}

bool CommOrderBlocks(CommOrder order) { return order == CommOrder::kMegatron || order == CommOrder::kDualPipe; }

Tick CommModel::SizeTicks(std::int64_t bytes) const {
  if (bandwidth <= 0 || bytes <= 0) return 0;
  const __int128 scaled = static_cast<__int128>(bytes) * time_scale;
  const __int128 ticks = (scaled + bandwidth - 1) / bandwidth;
  return ticks > kMaxWork ? kMaxWork + 1 : static_cast<Tick>(ticks);  // over: RunComms refuses the run
}

std::int64_t CommModel::BytesAt(int boundary) const {
  if (transfer_bytes.empty()) return 0;
  return transfer_bytes.size() == 1 ? transfer_bytes[0] : transfer_bytes[boundary];
}

Error ValidateCommModel(const CommModel& model, int stages) {
  if (model.latency < 0 || model.latency > kMaxCost)
    return Error::Field(ErrorCode::kInvalidValue, "link.latency", " must be in [0, 2^40], got " + std::to_string(model.latency));
  if (model.bandwidth < 0)
    return Error::Field(ErrorCode::kInvalidValue, "link.bandwidth", " must be > 0, got " + std::to_string(model.bandwidth));
  if (model.concurrency < 0)
    return Error::Field(ErrorCode::kInvalidValue, "link.concurrency",
                        " must be ≥ 1 (0 = unlimited), got " + std::to_string(model.concurrency));
  if (model.unshard < 0 || model.unshard > kMaxCost)
    return Error::Field(ErrorCode::kInvalidValue, "unshard", " must be in [0, 2^40], got " + std::to_string(model.unshard));
  if (model.reduce_grad < 0 || model.reduce_grad > kMaxCost)
    return Error::Field(ErrorCode::kInvalidValue, "reduce_grad",
                        " must be in [0, 2^40], got " + std::to_string(model.reduce_grad));
  const size_t n = model.transfer_bytes.size();
  if (n > 1 && static_cast<int>(n) != stages - 1)
    return Error::Field(ErrorCode::kInvalidValue, "link.bytes",
                        " needs one value or one per boundary (" + std::to_string(stages - 1) + "), got " +
                            std::to_string(n));
  for (size_t i = 0; i < n; ++i)
    if (model.transfer_bytes[i] < 0 || model.transfer_bytes[i] > kMaxBytes)
      return Error::Field(ErrorCode::kInvalidValue, "link.bytes[" + std::to_string(i) + "]",
                          " must be in [0, 64 GiB], got " + std::to_string(model.transfer_bytes[i]));
  return Error::Ok();
}

namespace {

// The transfers `op` needs (its RECVs) and makes (its SENDs), by PyTorch's naming.
void AddRecv(const Problem& problem, const OpSpace& space, const Op& op, std::vector<CommAction>& out) {
  if (op.kind == OpKind::kF && !space.IsFirstStage(op.stage) && problem.DeviceOf(op.stage - 1) != problem.DeviceOf(op.stage))
    out.push_back({CommKind::kRecvF, {}, op.stage, op.microbatch, -1});
  if (op.kind == OpKind::kB && !space.IsLastStage(op.stage) && problem.DeviceOf(op.stage + 1) != problem.DeviceOf(op.stage))
    out.push_back({CommKind::kRecvB, {}, op.stage, op.microbatch, -1});
}

void AddSend(const Problem& problem, const OpSpace& space, const Op& op, std::vector<CommAction>& out) {
  if (op.kind == OpKind::kF && !space.IsLastStage(op.stage) && problem.DeviceOf(op.stage + 1) != problem.DeviceOf(op.stage))
    out.push_back({CommKind::kSendF, {}, op.stage, op.microbatch, -1});
  if (op.kind == OpKind::kB && !space.IsFirstStage(op.stage) && problem.DeviceOf(op.stage - 1) != problem.DeviceOf(op.stage))
    out.push_back({CommKind::kSendB, {}, op.stage, op.microbatch, -1});
}

}  // namespace

CommProgram LowerAdjacent(const Problem& problem, const Schedule& schedule) {
  const OpSpace& space = schedule.space;
  CommProgram program;
  program.devices.resize(schedule.devices.size());
  for (size_t d = 0; d < schedule.devices.size(); ++d) {
    std::vector<CommAction>& out = program.devices[d];
    for (const Slot& slot : schedule.devices[d]) {
      AddRecv(problem, space, space.At(slot.op), out);
      if (slot.pair()) AddRecv(problem, space, space.At(slot.overlapped), out);
      CommAction compute;
      compute.slot = slot;
      out.push_back(compute);
      AddSend(problem, space, space.At(slot.op), out);
      if (slot.pair()) AddSend(problem, space, space.At(slot.overlapped), out);
    }
  }
  return program;
}

}  // namespace ppsim

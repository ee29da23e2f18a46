// Device memory in bytes: what each device holds for its stages (parameters,
// gradients, optimizer state) plus the activations it keeps between the
// passes, against an optional per-device limit.
//
// Every per-stage list holds one value per virtual stage, or one value for
// every stage (as Costs do). A device holding two stages (interleaved, ZB-V,
// DualPipeV, DualPipe) holds the sum of both; for DualPipe, whose stages
// [P, 2P) are a second copy of the model, that is the doubled parameter
// memory DeepSeek reports.
//
// Activations of (m, s) are counted over the Problem's HoldMode interval
// (memory.h): resident = from the start of F(m,s) to the end of its backward,
// held = from the end of F to the start of the backward. When the backward
// is split, `freed_by_b_percent` of the bytes go when B (the input-gradient
// pass) is done and the rest when W is done (W still reads the stage's
// inputs); without a split the whole amount goes with B.
#pragma once

#include <cstdint>
#include <vector>

#include "ppsim/error.h"

namespace ppsim {

struct MemoryModel {
  std::vector<std::int64_t> activation_bytes;  // per stage-microbatch; empty = no byte accounting
  int freed_by_b_percent = 0;                  // 0..100; the rest is freed by W (split backward only)
  std::vector<std::int64_t> param_bytes;       // per stage; empty = 0
  std::vector<std::int64_t> grad_bytes;        // per stage; empty = 0
  std::vector<std::int64_t> optimizer_bytes;   // per stage; empty = 0
  std::int64_t limit = 0;                      // bytes per device; 0 = no limit
  // With recompute (recompute.h): bytes a stage holds per microbatch between
  // F and R, its layers' inputs (a model file's checkpoint_bytes); empty =
  // Problem::recompute_inputs_num/den of activation_bytes.
  std::vector<std::int64_t> input_bytes;

  // True iff any byte figure was given (otherwise ppsim reports no bytes).
  bool enabled() const;
  // Parameters + gradients + optimizer state of `stage`.
  std::int64_t StaticBytes(int stage) const;
  std::int64_t ActivationBytes(int stage) const;
  std::int64_t InputBytes(int stage) const;  // input_bytes' value for `stage` (0 when empty)
};

// kOk, or kInvalidValue / kTooLarge naming the field ("activation_bytes[3]
// must be ≥ 0"). Each value is capped at kMaxBytes (64 GiB) so that a device
// holding every one of its at most 2^26 stage-microbatches cannot overflow.
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 36;
inline constexpr std::int64_t kMaxMemoryLimit = std::int64_t{1} << 62;
Error ValidateMemoryModel(const MemoryModel& memory, int stages);

}  // namespace ppsim

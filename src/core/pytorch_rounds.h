// PyTorch's rounds: its interleaved schedules (ScheduleInterleaved1F1B,
// ScheduleInterleavedZeroBubble) run microbatches in max(1, M/P) rounds of
// M / max(1, M/P) each, which is P when P divides M (Megatron's default
// group). Shared by `interleaved` and `zb1p`.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim {

// Microbatches per round: M / max(1, M/P).
int PytorchRoundSize(const Problem& p);

// kOk, or a kPrecondition Error naming `schedule` when M is not a multiple
// of the number of rounds (PyTorch refuses such an M).
Error CheckPytorchRounds(const Problem& p, const std::string& schedule);

}  // namespace ppsim

#include "pytorch_rounds.h"

#include <algorithm>

namespace ppsim {

int PytorchRoundSize(const Problem& p) { return p.M / std::max(1, p.M / p.P); }

Error CheckPytorchRounds(const Problem& p, const std::string& schedule) {
  // Megatron-LM needs M to be a multiple of P, which is the case its order
  // is defined for.
  const int rounds = std::max(1, p.M / p.P);
  if (p.M % rounds != 0)
    return Fail(ErrorCode::kPrecondition,
                schedule + " needs M divisible by its number of rounds max(1, M/P) = " + std::to_string(rounds) +
                    "; got M = " + std::to_string(p.M) + ", P = " + std::to_string(p.P) +
                    " (use M a multiple of P, e.g. " + std::to_string(rounds * p.P) + ")");
  return Error::Ok();
}

}  // namespace ppsim

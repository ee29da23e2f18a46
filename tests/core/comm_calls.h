// A device's comm program as text, each blocking batch in brackets:
// "F0@s0 [SEND_F0@s0] F1@s0 [SEND_F1@s0 RECV_B0@s0] ...", an overlapped
// pair "F+B", a full backward in a split schedule "(full)": the form the
// Megatron and DualPipe lowering tests write their expected calls in.
#pragma once

#include <string>
#include <vector>

#include "ppsim/comm_model.h"
#include "ppsim/comm_run.h"

namespace ppsim::testing {

inline std::string Calls(const OpSpace& space, const std::vector<CommAction>& program) {
  std::string out;
  for (size_t i = 0; i < program.size(); ++i) {
    const CommAction& a = program[i];
    const bool opens = a.batch >= 0 && (i == 0 || program[i - 1].batch != a.batch);
    const bool closes = a.batch >= 0 && (i + 1 == program.size() || program[i + 1].batch != a.batch);
    out += (out.empty() ? "" : " ") + std::string(opens ? "[" : "") + CommActionName(space, a) +
           (a.kind == CommKind::kCompute && a.slot.full ? "(full)" : "") + (closes ? "]" : "");
  }
  return out;
}

}  // namespace ppsim::testing

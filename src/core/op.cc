#include "ppsim/op.h"

namespace ppsim {

char KindChar(OpKind kind) {
  switch (kind) {
    case OpKind::kF: return 'F';
    case OpKind::kB: return 'B';
    case OpKind::kW: return 'W';
    case OpKind::kR: return 'R';
  }
  return '?';
}

std::optional<OpKind> KindFromChar(char c) {
  switch (c) {
    case 'F': return OpKind::kF;
    case 'B': return OpKind::kB;
    case 'W': return OpKind::kW;
    case 'R': return OpKind::kR;
    default: return std::nullopt;
  }
}

std::string OpName(const Op& op) {
  return std::string(1, KindChar(op.kind)) + std::to_string(op.microbatch) + "@s" +
         std::to_string(op.stage);
}

}  // namespace ppsim

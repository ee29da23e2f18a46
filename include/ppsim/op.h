// An op is one unit of pipeline work: the forward (F), backward (B) or — when
// the backward is split, as in zero-bubble schedules — the weight-gradient
// pass (W) of microbatch m on virtual stage s. When the backward is split, B
// is the input-gradient pass only.
//
// Ops are named "F3@s1" (kind, microbatch, '@s', stage) in every message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ppsim {

using Tick = std::int64_t;  // time is an exact integer number of ticks

enum class OpKind : std::uint8_t { kF = 0, kB = 1, kW = 2 };
inline constexpr int kNumOpKinds = 3;

char KindChar(OpKind kind);                         // 'F', 'B', 'W'
std::optional<OpKind> KindFromChar(char c);         // inverse of KindChar

struct Op {
  OpKind kind = OpKind::kF;
  std::int32_t microbatch = 0;
  std::int32_t stage = 0;
  friend bool operator==(const Op&, const Op&) = default;
};

// "F3@s1".
std::string OpName(const Op& op);

// Dense integer ids for all ops of a problem with S stages and M microbatches:
// id = (kind * S + stage) * M + microbatch. Flat arrays indexed by OpId are
// what makes placement fast.
using OpId = std::int32_t;
inline constexpr OpId kNoOp = -1;

class OpSpace {
 public:
  OpSpace() = default;
  OpSpace(int stages, int microbatches) : S_(stages), M_(microbatches) {}
  int stages() const { return S_; }
  int microbatches() const { return M_; }
  // Number of ids (all three kinds).
  std::int64_t size() const { return std::int64_t{kNumOpKinds} * S_ * M_; }
  OpId Id(OpKind kind, int microbatch, int stage) const {
    return (static_cast<OpId>(kind) * S_ + stage) * M_ + microbatch;
  }
  OpId Id(const Op& op) const { return Id(op.kind, op.microbatch, op.stage); }
  Op At(OpId id) const {
    Op op;
    op.microbatch = id % M_;
    op.stage = (id / M_) % S_;
    op.kind = static_cast<OpKind>(id / (M_ * S_));
    return op;
  }

 private:
  int S_ = 0;
  int M_ = 0;
};

}  // namespace ppsim

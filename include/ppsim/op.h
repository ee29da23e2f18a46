// An op is one unit of pipeline work: the forward (F), backward (B) or — when
// the backward is split, as in zero-bubble schedules — the weight-gradient
// pass (W) of microbatch m on virtual stage s. When the backward is split, B
// is the input-gradient pass only. With recompute (recompute.h), R is the
// forward run again from the stage's saved inputs just before B needs its
// activations.
//
// Ops are named "F3@s1" (kind, microbatch, '@s', stage) in every message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ppsim {

using Tick = std::int64_t;  // time is an exact integer number of ticks

enum class OpKind : std::uint8_t { kF = 0, kB = 1, kW = 2, kR = 3 };
// Kinds with ids in every space; R ids exist only in a space with recompute.
inline constexpr int kNumOpKinds = 3;

char KindChar(OpKind kind);                         // 'F', 'B', 'W', 'R'
std::optional<OpKind> KindFromChar(char c);         // 'F', 'B', 'W', 'R'

struct Op {
  OpKind kind = OpKind::kF;
  std::int32_t microbatch = 0;
  std::int32_t stage = 0;
  friend bool operator==(const Op&, const Op&) = default;
};

// "F3@s1".
std::string OpName(const Op& op);

// Dense integer ids for all ops of a problem with S stages and M
// microbatches, microbatch-major so that the ops placed around the same time
// (one microbatch's wave through the pipeline) sit together in memory:
//   F(m,s) = 2mS + s,  B(m,s) = (2m+1)S + s,  W(m,s) = 2SM + mS + s,
//   R(m,s) = 3SM + mS + s (a space with recompute only).
// W ids come after every F and B, so a schedule without W needs only the
// first 2SM ids; R ids come last, so a space without recompute has none.
// Flat arrays indexed by OpId are what make placement fast.
using OpId = std::int32_t;
inline constexpr OpId kNoOp = -1;

//
// Bidirectional spaces (DualPipe) hold two independent pipelines: stages
// [0, split) carry microbatches [0, M/2) and stages [split, S) carry
// microbatches [M/2, M). The ids of the other (microbatch, stage) pairs
// exist but name no op (Exists() is false); stage split-1 ends the first
// chain and stage split starts the second.
class OpSpace {
 public:
  OpSpace() = default;
  OpSpace(int stages, int microbatches, int split = 0, bool recompute = false)
      : S_(stages), M_(microbatches), split_(split), recompute_(recompute) {}
  int stages() const { return S_; }
  int microbatches() const { return M_; }
  int split() const { return split_; }  // 0 = one chain over all stages
  bool recompute() const { return recompute_; }  // R ids exist
  bool Exists(int microbatch, int stage) const {
    return split_ == 0 || (stage < split_) == (microbatch < M_ / 2);
  }
  // The first stage of a microbatch's chain (no forward dependency) and the
  // last (its backward follows its own forward).
  bool IsFirstStage(int stage) const { return stage == 0 || stage == split_; }
  bool IsLastStage(int stage) const { return stage == S_ - 1 || (split_ != 0 && stage == split_ - 1); }
  // Number of ids (F, B, W, and R with recompute); ids of F and B are [0, 2SM).
  std::int64_t size() const { return std::int64_t{kNumOpKinds + (recompute_ ? 1 : 0)} * S_ * M_; }
  OpId Id(OpKind kind, int microbatch, int stage) const {
    if (kind == OpKind::kW) return (2 * M_ + microbatch) * S_ + stage;
    if (kind == OpKind::kR) return (3 * M_ + microbatch) * S_ + stage;
    return (2 * microbatch + static_cast<OpId>(kind)) * S_ + stage;
  }
  OpId Id(const Op& op) const { return Id(op.kind, op.microbatch, op.stage); }
  Op At(OpId id) const {
    Op op;
    const OpId q = id / S_;
    op.stage = id - q * S_;
    if (q >= 2 * M_) {
      const bool r = q >= 3 * M_;
      op.kind = r ? OpKind::kR : OpKind::kW;
      op.microbatch = q - (r ? 3 : 2) * M_;
    } else {
      op.kind = static_cast<OpKind>(q & 1);
      op.microbatch = q >> 1;
    }
    return op;
  }

 private:
  int S_ = 0;
  int M_ = 0;
  int split_ = 0;
  bool recompute_ = false;
};

}  // namespace ppsim

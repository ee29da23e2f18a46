#include "interleaved_order.h"

#include <algorithm>
#include <vector>

#include "schedule_builder.h"

namespace ppsim {
namespace {

// Chunk of the k-th entry of Megatron's schedule table, k in [0, v·M).
std::vector<int> ChunkTable(int M, int v, int group) {
  std::vector<int> chunk;
  chunk.reserve(static_cast<size_t>(v) * M);
  for (int first = 0; first < M; first += group) {
    const int size = first + group >= M ? M - first : group;  // the last group takes the rest
    for (int c = 0; c < v; ++c) chunk.insert(chunk.end(), size, c);
  }
  return chunk;
}

}  // namespace

int MegatronGroup(const Problem& p) { return p.group != 0 ? p.group : p.P; }

Error CheckMegatronGroup(const Problem& p, const std::string& schedule) {
  const int g = MegatronGroup(p);
  const std::string where = " " + std::to_string(g) + ": " + schedule + ": ";  // "group 3: interleaved: ..."
  if (g < p.P || g > p.M)
    return Error::Field(ErrorCode::kPrecondition, "group",
                        where + "the number of contiguous microbatches in a virtual pipeline stage "
                        "(Megatron's microbatch_group_size_per_vp_stage) must lie in [P = " + std::to_string(p.P) +
                            ", M = " + std::to_string(p.M) + "]");
  const int last = p.M % g;
  if (last > 0 && last < p.P)
    return Error::Field(ErrorCode::kPrecondition, "group",
                        where + "M mod group must be 0 or at least P = " + std::to_string(p.P) + ", but M = " +
                            std::to_string(p.M) + " leaves a last group of " + std::to_string(last) +
                            " (Megatron refuses it: a shorter last group leaves dependency bubbles)");
  return Error::Ok();
}

Schedule InterleavedOrder(const Problem& p, int group, int extra_warmup, bool overlap) {
  Schedule s = EmptySchedule(p);
  const int v = p.v;
  const int total = v * p.M;
  const std::vector<int> table = ChunkTable(p.M, v, group);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * total);
    const int warmup = std::min((v - 1) * group + 2 * (p.P - 1 - d) + extra_warmup, total);
    std::vector<int> next_f(v, 0), next_b(v, 0);  // next microbatch per local chunk
    auto forward_stage = [&](int k) { return table[k] * p.P + d; };
    auto backward_stage = [&](int k) { return (v - 1 - table[k]) * p.P + d; };
    for (int k = 0; k < warmup; ++k) {
      const int st = forward_stage(k);
      q.F(next_f[st / p.P]++, st);
    }
    for (int k = warmup; k < total; ++k) {  // forward k with backward k - warmup
      const int fs = forward_stage(k), bs = backward_stage(k - warmup);
      const int fm = next_f[fs / p.P]++, bm = next_b[bs / p.P]++;
      if (overlap) {
        q.Pair(fm, fs, bm, bs);
      } else {
        q.F(fm, fs);
        q.B(bm, bs);
      }
    }
    for (int k = total - warmup; k < total; ++k) {
      const int bs = backward_stage(k);
      q.B(next_b[bs / p.P]++, bs);
    }
  }
  return s;
}

}  // namespace ppsim

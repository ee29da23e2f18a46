#include "ppsim/microbatch_lengths.h"

#include <algorithm>
#include <string>

namespace ppsim {

std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::int64_t UniformInt(std::uint64_t& state, std::int64_t lo, std::int64_t hi) {
  const std::uint64_t n = static_cast<std::uint64_t>(hi - lo) + 1;
  const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n: the values that would favour small lengths
  std::uint64_t x = SplitMix64(state);
  while (x < reject_below) x = SplitMix64(state);
  return lo + static_cast<std::int64_t>(x % n);
}

std::vector<std::int64_t> MicrobatchLengths(const Problem& p) {
  if (p.lengths == LengthSource::kList) return p.length_list;
  if (p.lengths != LengthSource::kUniform) return {};
  std::vector<std::int64_t> out(p.M);
  std::uint64_t state = p.length_seed;
  for (std::int64_t& L : out) L = UniformInt(state, p.length_range[0], p.length_range[1]);
  return out;
}

namespace {

// L ≤ 2^20 and hidden ≤ 2^24: L·(12·hidden + 1 + L) < 2^49, no overflow.
Tick WeightOf(const Problem& p, std::int64_t L) {
  return p.length_cost == LengthCost::kCausal ? L * (12 * p.hidden + 1 + L) : L;
}

}  // namespace

std::vector<Tick> MicrobatchWeights(const Problem& p) {
  if (!p.microbatch_weights.empty() || p.lengths == LengthSource::kNone) return p.microbatch_weights;
  std::vector<Tick> w = MicrobatchLengths(p);
  for (Tick& x : w) x = WeightOf(p, x);
  return w;
}

Error CheckMicrobatchLengths(const Problem& p) {
  if (p.lengths == LengthSource::kNone) return Error::Ok();
  auto bad = [](const char* key, const std::string& what) { return Error::Field(ErrorCode::kInvalidValue, key, what); };
  if (!p.microbatch_weights.empty())
    return bad("microbatch_lengths", ": give microbatch_costs or microbatch_lengths, not both");
  if (p.lengths == LengthSource::kList && static_cast<int>(p.length_list.size()) != p.M)
    return bad("microbatch_lengths", ": " + std::to_string(p.length_list.size()) +
                                         " values given for M = " + std::to_string(p.M) + " microbatches");
  const std::vector<std::int64_t>& r = p.length_range;
  if (p.lengths == LengthSource::kUniform && r.empty())
    return bad("microbatch_lengths", ": uniform needs length_range MIN:MAX (tokens)");
  if (p.lengths == LengthSource::kUniform && (r.size() != 2 || r[0] < 1 || r[0] > r[1])) {
    std::string got;
    for (std::int64_t x : r) got += (got.empty() ? "" : ":") + std::to_string(x);
    return bad("length_range", ": give MIN:MAX with 1 ≤ MIN ≤ MAX, got " + got);
  }
  if (p.length_cost == LengthCost::kCausal && p.hidden == 0)
    return bad("length_cost",
               ": causal needs hidden (a microbatch of L tokens costs L·(12·hidden + 1 + L), "
               "docs/costs.md)");
  std::int64_t L = p.lengths == LengthSource::kUniform ? r[1] : 0;
  for (std::int64_t x : p.length_list) L = std::max(L, x);
  if (const Tick w = WeightOf(p, L); w > kMaxCost)
    return Error::Field(ErrorCode::kTooLarge, "length_cost",
                        ": a microbatch of " + std::to_string(L) + " tokens weighs " + std::to_string(w) +
                            ", over the limit " + std::to_string(kMaxCost));
  return Error::Ok();
}

}  // namespace ppsim

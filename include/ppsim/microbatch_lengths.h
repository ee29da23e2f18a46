// Microbatch lengths: packed samples of unequal lengths give each microbatch
// its own cost (Megatron's variable_seq_lengths). The lengths, in tokens, are
// given (M values) or drawn from a seeded uniform distribution; a cost rule
// turns each length L into the weight its ops' stage costs are multiplied by
// (Problem::microbatch_weights, slices.h):
//
//   linear  L                    every token costs the same
//   causal  L·(12·hidden + 1 + L) one transformer layer's forward FLOPs with
//                                causal attention, up to a common factor
//                                (docs/costs.md; the slice rule's source)
//
// Weights are not reduced, so a stage cost is the cost of one unit of the
// rule (one token, linear) and runs at different seeds share their units.
//
// The draw is the same on every machine: splitmix64 (Steele, Lea and
// Flood, OOPSLA 2014; Vigna's splitmix64.c) from state = seed, one output
// x per microbatch in order, read as lo + x mod n with n = hi − lo + 1,
// drawing again while x < 2^64 mod n (so every length is equally likely).
// Microbatch m's length is the m-th draw whatever M is: M = 4 is a prefix
// of M = 8 at the same seed.
#pragma once

#include <cstdint>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim {

// splitmix64's next output; advances `state`.
std::uint64_t SplitMix64(std::uint64_t& state);
// A whole number in [lo, hi], each equally likely. REQUIRES: lo ≤ hi.
std::int64_t UniformInt(std::uint64_t& state, std::int64_t lo, std::int64_t hi);

// Each microbatch's length in tokens: the given list, or M draws; empty
// without lengths. REQUIRES: CheckMicrobatchLengths(p) ok.
std::vector<std::int64_t> MicrobatchLengths(const Problem& p);

// Each microbatch's cost weight: Problem::microbatch_weights when given, else
// the lengths through the cost rule; empty (1 each) without either.
// REQUIRES: CheckMicrobatchLengths(p) ok.
std::vector<Tick> MicrobatchWeights(const Problem& p);

// True iff microbatches have costs of their own (weights or lengths).
inline bool PerMicrobatch(const Problem& p) {
  return !p.microbatch_weights.empty() || p.lengths != LengthSource::kNone;
}

// kInvalidValue, naming the key: microbatch_costs and microbatch_lengths
// both given; a list of another length than M; uniform without
// length_range; a range that is not MIN:MAX with 1 ≤ MIN ≤ MAX; causal
// without hidden. kTooLarge: a weight over kMaxCost.
Error CheckMicrobatchLengths(const Problem& p);

}  // namespace ppsim

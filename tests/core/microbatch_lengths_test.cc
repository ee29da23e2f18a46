// Microbatch lengths (issue 28): splitmix64 gives the published outputs, the
// draws are the same lengths on every machine, and the cost rules weigh a
// length as docs/costs.md says.
#include "ppsim/microbatch_lengths.h"

#include <gtest/gtest.h>

#include <vector>

#include "ppsim/problem_keys.h"

namespace ppsim {
namespace {

// Rosetta Code, "Pseudo-random numbers/Splitmix64": the first five outputs
// from state 1234567 (the same as Vigna's splitmix64.c).
TEST(MicrobatchLengths, SplitMix64GivesThePublishedOutputs) {
  std::uint64_t state = 1234567;
  const std::vector<std::uint64_t> want = {6457827717110365317ULL, 3203168211198807973ULL, 9817491932198370423ULL,
                                           4593380528125082431ULL, 16408922859458223821ULL};
  for (std::uint64_t x : want) EXPECT_EQ(SplitMix64(state), x);
}

Problem Uniform(int M, std::int64_t lo, std::int64_t hi, std::uint64_t seed) {
  Problem p;
  p.M = M;
  p.lengths = LengthSource::kUniform;
  p.length_range = {lo, hi};
  p.length_seed = seed;
  return p;
}

// The lengths an independent Python transcription of the rule (docs/costs.md)
// draws; M = 4 is a prefix of M = 8 at the same seed.
TEST(MicrobatchLengths, SeedSevenDrawsTheDocumentedLengths) {
  EXPECT_EQ(MicrobatchLengths(Uniform(4, 1, 8, 7)), (std::vector<std::int64_t>{8, 5, 3, 4}));
  EXPECT_EQ(MicrobatchLengths(Uniform(8, 1, 8, 7)), (std::vector<std::int64_t>{8, 5, 3, 4, 3, 2, 7, 7}));
  EXPECT_EQ(MicrobatchWeights(Uniform(4, 1, 8, 7)), (std::vector<Tick>{8, 5, 3, 4}));
}

TEST(MicrobatchLengths, EveryLengthInTheRangeIsDrawnAndNoOther) {
  const std::vector<std::int64_t> L = MicrobatchLengths(Uniform(4000, 3, 6, 11));
  std::vector<int> seen(8, 0);
  for (std::int64_t x : L) {
    ASSERT_GE(x, 3);
    ASSERT_LE(x, 6);
    ++seen[x];
  }
  for (int x = 3; x <= 6; ++x) EXPECT_GT(seen[x], 900) << x;  // 1000 expected each
}

// L·(12·hidden + 1 + L): 512 tokens at hidden 64 weigh 512·(768 + 1 + 512).
TEST(MicrobatchLengths, CausalWeighsTheAttentionTerm) {
  Problem p;
  p.M = 2;
  ASSERT_TRUE(SetProblemKey("microbatch_lengths", KeyValue::List({512, 1024}), p).ok());
  ASSERT_TRUE(SetProblemKey("length_cost", KeyValue::Word("causal"), p).ok());
  p.hidden = 64;
  ASSERT_TRUE(CheckMicrobatchLengths(p).ok());
  EXPECT_EQ(MicrobatchWeights(p), (std::vector<Tick>{512 * 1281, 1024 * 1793}));
}

TEST(MicrobatchLengths, GivenWithWeightsIsRefused) {
  Problem p = Uniform(2, 1, 4, 1);
  p.microbatch_weights = {1, 2};
  const Error e = CheckMicrobatchLengths(p);
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.field, "microbatch_lengths");
}

}  // namespace
}  // namespace ppsim

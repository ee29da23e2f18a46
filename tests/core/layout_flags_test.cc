// Megatron's split flags give the per-stage decoder layer counts Megatron's
// get_num_layers_to_build computes, and the refusals of its checks.
#include "ppsim/layout_flags.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/layout.h"

namespace ppsim {
namespace {

std::vector<int> Counts(const MegatronSplitFlags& f) {
  Result<std::vector<int>> counts = MegatronDecoderCounts(f);
  EXPECT_TRUE(counts.ok()) << counts.error().Text();
  return counts.ok() ? *counts : std::vector<int>{};
}

ErrorCode Refused(const MegatronSplitFlags& f) {
  Result<std::vector<int>> counts = MegatronDecoderCounts(f);
  EXPECT_FALSE(counts.ok());
  return counts.ok() ? ErrorCode::kOk : counts.error().code;
}

TEST(MegatronFlags, EvenSplit) {
  EXPECT_EQ(Counts({.num_layers = 8, .P = 4}), (std::vector<int>{2, 2, 2, 2}));
  // Interleaved: with 8 layers, 2 ranks and 4 chunks, one layer each (get_num_layers_to_build's comment).
  EXPECT_EQ(Counts({.num_layers = 8, .P = 2, .chunks = 4}), (std::vector<int>(8, 1)));
  EXPECT_EQ(Refused({.num_layers = 7, .P = 4}), ErrorCode::kPrecondition);
  EXPECT_EQ(Refused({.num_layers = 8, .P = 4, .chunks = 4}), ErrorCode::kPrecondition);  // 2 per rank, 4 chunks
}

TEST(MegatronFlags, FirstAndLastLayers) {
  EXPECT_EQ(Counts({.num_layers = 8, .P = 4, .first_layers = 1, .last_layers = 1}), (std::vector<int>{1, 3, 3, 1}));
  EXPECT_EQ(Counts({.num_layers = 7, .P = 4, .first_layers = 1}), (std::vector<int>{1, 2, 2, 2}));
  EXPECT_EQ(Counts({.num_layers = 7, .P = 4, .last_layers = 4}), (std::vector<int>{1, 1, 1, 4}));
  // v = 2: each rank's layers halved over its two chunks, rank by rank in virtual-stage order.
  EXPECT_EQ(Counts({.num_layers = 16, .P = 4, .chunks = 2, .first_layers = 2, .last_layers = 2}),
            (std::vector<int>{1, 3, 3, 1, 1, 3, 3, 1}));
  // DeepSeek-V3's 61 layers over 8 ranks, 5 on rank 0: the 7 other ranks hold 8 each.
  EXPECT_EQ(Counts({.num_layers = 61, .P = 8, .first_layers = 5}), (std::vector<int>{5, 8, 8, 8, 8, 8, 8, 8}));
  EXPECT_EQ(Refused({.num_layers = 8, .P = 4, .first_layers = 0}), ErrorCode::kInvalidValue);
  EXPECT_EQ(Refused({.num_layers = 8, .P = 4, .chunks = 2, .first_layers = 3}), ErrorCode::kPrecondition);
  EXPECT_EQ(Refused({.num_layers = 9, .P = 4, .first_layers = 1, .last_layers = 1}), ErrorCode::kPrecondition);
  EXPECT_EQ(Refused({.num_layers = 4, .P = 2, .first_layers = 2, .last_layers = 1}), ErrorCode::kPrecondition);
  const Result<std::vector<int>> both =
      MegatronDecoderCounts({.num_layers = 8, .P = 4, .first_layers = 1, .account_for_embedding = true});
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().Text(),
            "decoder_first_pipeline_num_layers cannot be given with account_for_embedding_in_pipeline_split or "
            "account_for_loss_in_pipeline_split (Megatron's TransformerConfig)");
}

TEST(MegatronFlags, EmbeddingAndLossCountAsLayers) {
  EXPECT_EQ(Counts({.num_layers = 14, .P = 4, .account_for_embedding = true, .account_for_loss = true}),
            (std::vector<int>{3, 4, 4, 3}));
  EXPECT_EQ(Counts({.num_layers = 14, .P = 4, .chunks = 2, .account_for_embedding = true, .account_for_loss = true}),
            (std::vector<int>{1, 2, 2, 2, 2, 2, 2, 1}));
  EXPECT_EQ(Counts({.num_layers = 3, .P = 4, .account_for_embedding = true}), (std::vector<int>{0, 1, 1, 1}));
  EXPECT_EQ(Refused({.num_layers = 14, .P = 4, .account_for_embedding = true}), ErrorCode::kPrecondition);
}

TEST(MegatronFlags, StagesReadBackAsALayout) {
  Result<std::vector<std::string>> stages =
      MegatronFlagStages({.num_layers = 61, .P = 8, .first_layers = 5, .mtp_layers = 1});
  ASSERT_TRUE(stages.ok());
  EXPECT_EQ(stages->front(), "Ettttt");
  EXPECT_EQ(stages->back(), "ttttttttmL");
  const std::string text = WriteLayoutString(*stages);
  EXPECT_EQ(text, "Et*5|(t*8|)*6,t*8mL");
  Result<Layout> layout = ReadLayout(text, {8, 0, 61, 1});
  ASSERT_TRUE(layout.ok()) << layout.error().Text();
  EXPECT_EQ(layout->At(7, 0).decoder_layer_ids.front(), 53);
}

}  // namespace
}  // namespace ppsim

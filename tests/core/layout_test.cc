// Megatron's layout string: ppsim reads what Megatron's parser reads (the
// recorded layouts in tests/data/megatron_layouts_public.json, Megatron's
// documented examples) and refuses what it refuses, naming the column.
#include "ppsim/layout.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace ppsim {
namespace {

Layout Read(const std::string& text, int P, int num_layers = -1, int mtp_layers = -1) {
  Result<Layout> layout = ReadLayout(text, {P, 0, num_layers, mtp_layers});
  EXPECT_TRUE(layout.ok()) << text << " P=" << P << ": " << (layout.ok() ? "" : layout.error().Text());
  return layout.ok() ? *layout : Layout{};
}

Error Refusal(const std::string& text, int P, int num_layers = -1, int mtp_layers = -1, int chunks = 0) {
  Result<Layout> layout = ReadLayout(text, {P, chunks, num_layers, mtp_layers});
  EXPECT_FALSE(layout.ok()) << text << " P=" << P << " was accepted";
  return layout.ok() ? Error::Ok() : layout.error();
}

std::vector<std::string> Letters(const Layout& layout) {
  std::vector<std::string> out;
  for (const LayoutStage& s : layout.stages) out.push_back(s.layers);
  return out;
}

TEST(Layout, RecordedMegatronLayouts) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/megatron_layouts_public.json");
  ASSERT_TRUE(in);
  const nlohmann::json data = nlohmann::json::parse(in);
  ASSERT_EQ(data["layouts"].size(), 2u);
  for (const nlohmann::json& c : data["layouts"]) {
    const std::string text = c["layout"];
    const int mtp = c["mtp_num_layers"].is_null() ? 0 : c["mtp_num_layers"].get<int>();
    Result<std::vector<ExpandedStage>> expanded = ExpandLayout(text);
    ASSERT_TRUE(expanded.ok()) << text;
    std::vector<std::string> letters;
    for (const ExpandedStage& s : *expanded) letters.push_back(s.layers);
    EXPECT_EQ(letters, c["parse_str_to_list"].get<std::vector<std::string>>()) << text;
    Result<Layout> layout = ReadLayout(text, {c["P"].get<int>(), 0, c["num_layers"].get<int>(), mtp});
    if (!c["error"].is_null()) {
      ASSERT_FALSE(layout.ok()) << text;
      EXPECT_EQ(layout.error().Text(),
                "layout (column 1): the first layer must be the embedding E, got a decoder layer t");
      continue;
    }
    ASSERT_TRUE(layout.ok()) << layout.error().Text();
    EXPECT_EQ(layout->v, c["v"].get<int>());
    for (const nlohmann::json& rank : c["stages"])
      for (const nlohmann::json& want : rank) {
        const LayoutStage& got = layout->At(want["pp_rank"], want["vp_stage"]);
        EXPECT_EQ(got.virtual_stage, want["virtual_stage"].get<int>());
        EXPECT_EQ(got.layers, want["layers"].get<std::string>());
        EXPECT_EQ(got.decoder_layer_ids, want["decoder_layer_ids"].get<std::vector<int>>()) << got.virtual_stage;
      }
  }
}

// docs/user-guide/features/pipeline_parallel_layout.md: DeepSeek-V3's 61
// layers and one MTP layer at PP16, VPP2; its table of the rank map.
TEST(Layout, MegatronDocumentedDeepSeekExample) {
  const Layout l = Read("Et*3|(tt|)*29,m|L", 16, 61, 1);
  ASSERT_EQ(l.v, 2);
  EXPECT_EQ(l.At(0, 0).layers, "Ettt");
  EXPECT_EQ(l.At(0, 1).layers, "tt");
  for (int pp = 1; pp <= 13; ++pp) EXPECT_EQ(l.At(pp, 0).layers + l.At(pp, 1).layers, "tttt") << pp;
  EXPECT_EQ(l.At(14, 0).layers, "tt");
  EXPECT_EQ(l.At(14, 1).layers, "m");
  EXPECT_EQ(l.At(15, 1).layers, "L");
  EXPECT_EQ(l.At(0, 1).decoder_layer_ids, (std::vector<int>{33, 34}));  // 3 + 15·2 layers before it
  EXPECT_EQ(l.At(14, 1).mtp_layer_ids, std::vector<int>{0});
  EXPECT_TRUE(l.warnings.empty());
}

TEST(Layout, EmptyStagesAndDocumentedEmptyExample) {
  EXPECT_EQ(Letters(Read("E||t|L", 4)), (std::vector<std::string>{"E", "", "t", "L"}));
  EXPECT_EQ(Letters(Read("E||t|L", 2)), (std::vector<std::string>{"E", "", "t", "L"}));
  EXPECT_EQ(Read("E||t|L", 2).At(0, 1).layers, "t");
}

// Megatron's own --pipeline-model-parallel-layout help example, with its
// three decoder and two MTP layers, fails its own validation at every P
// that divides its 8 stages: an MTP layer outside a rank's last virtual
// stage (P = 1, 2), or the two MTP layers split over two stages (P = 4, 8).
TEST(Layout, MegatronHelpExampleIsRefused) {
  for (int P : {1, 2, 4, 8}) {
    const Error e = Refusal("E|(t|)*3,m|m||L", P, 3, 2);
    EXPECT_EQ(e.code, ErrorCode::kPrecondition) << P;
    EXPECT_EQ(e.column, 10) << P << ": " << e.Text();  // the first m
  }
  EXPECT_EQ(Refusal("E|(t|)*3,m|m||L", 2, 3, 2).Text(),
            "layout (column 10): an MTP layer m in vp stage 2 of pp rank 0: Megatron puts MTP layers only in a "
            "rank's last virtual stage");
  EXPECT_EQ(Refusal("E|(t|)*3,m|m||L", 3).code, ErrorCode::kInvalidValue);  // 8 stages, P = 3
}

TEST(Layout, EmbeddingAndLossArePlacedByMegatronNotByTheString) {
  const Layout l = Read("|Ett|tt|ttL", 4);
  EXPECT_TRUE(l.At(0, 0).builds_embedding);
  EXPECT_EQ(l.At(0, 0).layers, "");
  EXPECT_FALSE(l.At(1, 0).builds_embedding);
  EXPECT_EQ(l.At(1, 0).decoder_layer_ids, (std::vector<int>{0, 1}));
  ASSERT_EQ(l.warnings.size(), 1u);
  EXPECT_EQ(l.warnings[0],
            "layout (column 2): E is written in stage 1 (pp 1, vp 0), but Megatron builds the "
            "embedding on pp 0, vp 0");
  EXPECT_EQ(BuiltStages(l), (std::vector<std::string>{"E", "tt", "tt", "ttL"}));
}

TEST(Layout, RepeatsParenthesesAndCommasAsMegatronsTwoPatterns) {
  // Examples from parse_str_to_list's own comments.
  EXPECT_EQ(Letters(Read("E(tt|t|mmL)*1", 3)), (std::vector<std::string>{"Ett", "t", "mmL"}));
  EXPECT_EQ(Letters(Read("E,(t|)*2,tL", 3)), (std::vector<std::string>{"Et", "t", "tL"}));
  EXPECT_EQ(Letters(Read("(|E)*1,(t|)*2,L", 4)), (std::vector<std::string>{"", "Et", "t", "L"}));
  EXPECT_EQ(Letters(Read("E(t*2|)*2L", 3)), (std::vector<std::string>{"Ett", "tt", "L"}));  // X*n inside a group
  EXPECT_EQ(Letters(Read("Et*0|t*02L", 2)), (std::vector<std::string>{"E", "ttL"}));        // zero, leading zero
  EXPECT_EQ(Letters(Read("E|*2L", 3)), (std::vector<std::string>{"E", "", "L"}));           // `.` repeats a `|` too
  EXPECT_EQ(Letters(Read("E,t|t,,L", 2)), (std::vector<std::string>{"Et", "tL"}));
  // Nested parentheses: the first pattern stops at the first `)`, leaving a `(`.
  const Error nested = Refusal("E|((t)*2)*3|L", 3);
  EXPECT_EQ(nested.code, ErrorCode::kParse);
  EXPECT_EQ(nested.Text(), "layout (column 4): '(' is not a layer: E, t, m, L, | or a repeat (X)*n, X*n");
  EXPECT_EQ(Refusal("Et**2|L", 2).column, 3);  // `*` not followed by digits stays
  EXPECT_EQ(Refusal("*2Et|L", 2).column, 1);   // nothing to repeat
  EXPECT_EQ(Refusal("E(t|L", 2).column, 2);    // unclosed
  EXPECT_EQ(Refusal("Et|tL x", 2).column, 6);  // a space is not cosmetic, a comma is
  EXPECT_EQ(Refusal("Et|é", 2).Text(), "layout (column 4): 'é' is not a layer: E, t, m, L, | or a repeat (X)*n, X*n");
  EXPECT_EQ(Refusal("E(t|)*99999999999999999999L", 2).code, ErrorCode::kTooLarge);
}

TEST(Layout, ValidationInMegatronsOrderNamesTheColumn) {
  EXPECT_EQ(Refusal("Et|t|tL", 2).Text(), "layout (column 6): 3 stages, not a multiple of P = 2");
  EXPECT_EQ(Refusal("Et|tL", 1, -1, -1, 1).Text(),
            "layout (column 4): 2 stages, but P·chunks = 1·1 (Megatron: the virtual pipeline size conflicts with "
            "the layout)");
  EXPECT_EQ(Refusal("|", 2).Text(), "layout (column 1): the layout has no layer; the first must be the embedding E");
  EXPECT_EQ(Refusal("Et|tt", 2).Text(), "layout (column 5): the last layer must be the loss L, got a decoder layer t");
  EXPECT_EQ(Refusal("Et|EtL", 2).Text(), "layout (column 4): the embedding E must be written exactly once");
  EXPECT_EQ(Refusal("EtL|tL", 2).code, ErrorCode::kInvalidValue);
  EXPECT_EQ(Refusal("Ett|tL", 2, 4).Text(), "layout (column 5): 3 decoder layers (t), but num_layers is 4");
  EXPECT_EQ(Refusal("Ett|ttL", 2, 3).Text(), "layout (column 6): 4 decoder layers (t), but num_layers is 3");
  EXPECT_EQ(Refusal("Ett|tmL", 2, 3, 0).Text(), "layout (column 6): 1 MTP layers (m), but mtp_layers is 0");
  EXPECT_EQ(Refusal("Etm|tL", 2).Text(),
            "layout (column 5): a decoder layer t after an MTP layer m: Megatron places "
            "every decoder layer before the MTP layers");
  EXPECT_EQ(Refusal("Et|tm|m|L", 2, 2, 2).Text(),
            "layout (column 5): an MTP layer m in vp stage 0 of pp rank 1: Megatron puts MTP layers only in a rank's "
            "last virtual stage");
  EXPECT_EQ(Refusal("P", 0).Text(), "P must be ≥ 1, got 0");
}

TEST(Layout, MtpOnAnotherRankThanTheLossIsAccepted) {
  const Layout l = Read("Et|tt|mm|L", 4, 3, 2);  // Megatron's "mtp_standalone"
  EXPECT_EQ(l.At(2, 0).mtp_layer_ids, (std::vector<int>{0, 1}));
}

TEST(Layout, WrittenBackAsMegatronWritesIt) {
  const std::string deepseek = "Et*3|(tt|)*29,m|L";
  EXPECT_EQ(WriteLayoutString(BuiltStages(Read(deepseek, 16))), deepseek);
  for (const std::vector<std::string>& stages :
       std::vector<std::vector<std::string>>{{"EttL"},
                                             {"E", "", "", "tL"},
                                             {"Et", "t", "t", "", "", "tL"},
                                             {"", "Et", "t", "L"},
                                             {"Ettttt", "tttt", "tttt", "tmmL"}}) {
    const std::string text = WriteLayoutString(stages);
    EXPECT_EQ(Letters(Read(text, static_cast<int>(stages.size()))), stages) << text;
  }
  EXPECT_EQ(WriteLayoutString({"E", "", "", "tL"}), "E|(|)*2,tL");
  EXPECT_EQ(WriteLayoutString({"Et", "tt", "tt", "tt"}), "Et|(tt|)*2,tt");
}

TEST(Layout, TorchtitanModuleLists) {
  Result<std::vector<std::vector<std::string>>> m = TorchtitanModules(Read("Et|tt|tL", 3));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, (std::vector<std::vector<std::string>>{
                    {"tok_embeddings", "layers.0"}, {"layers.1", "layers.2"}, {"layers.3", "norm", "lm_head"}}));
  EXPECT_EQ((*TorchtitanModules(Read("|Et|t|L", 4)))[0], std::vector<std::string>{"tok_embeddings"});
  EXPECT_EQ(TorchtitanModules(Read("Et|tmL", 2)).error().code, ErrorCode::kPrecondition);
  // A stage with only the loss head has parameters; an empty stage has none,
  // and torchtitan's optimizer refuses such a model part: no lists, and the
  // first empty stage named.
  EXPECT_EQ((*TorchtitanModules(Read("Et|t|t|L", 4)))[3], (std::vector<std::string>{"norm", "lm_head"}));
  Result<std::vector<std::vector<std::string>>> empty = TorchtitanModules(Read("E|(t|)*3,|tL", 3));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(empty.error().Text(),
            "torchtitan: no module lists, as stage 4 (rank 1, vp stage 1) is empty and torchtitan builds an optimizer "
            "for each model part, which refuses a part without parameters (\"matched no parameters\", "
            "components/optimizer/optimizer.py)");
}

}  // namespace
}  // namespace ppsim

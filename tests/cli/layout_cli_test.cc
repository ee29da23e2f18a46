// `ppsim layout` through the shipped binary: Megatron's recorded split as
// JSON, the table and write-backs, the warning where the string and
// Megatron's placement disagree, and one line with its exit code for each
// string Megatron refuses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

// The recorded layout of tests/data/megatron_layouts_public.json, end to end.
TEST(LayoutCli, JsonGivesMegatronsRecordedStages) {
  auto run = RunPpsim("layout 'E|t|t*2|t||(t|)*2,t*2,L' -P 4 --num-layers 8 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["v"], 2);
  ASSERT_EQ(j["stages"].size(), 4u);
  std::vector<std::vector<std::string>> layers;
  for (const auto& rank : j["stages"]) {
    layers.emplace_back();
    for (const auto& stage : rank) layers.back().push_back(stage["layers"]);
  }
  EXPECT_EQ(layers, (std::vector<std::vector<std::string>>{{"E", ""}, {"t", "t"}, {"tt", "t"}, {"t", "ttL"}}));
  EXPECT_EQ(j["stages"][3][1]["decoder_layer_ids"], nlohmann::json({6, 7}));
  EXPECT_EQ(j["stages"][2][0]["decoder_layer_ids"], nlohmann::json({1, 2}));
  EXPECT_EQ(j["megatron_layout"], "E|t|tt|t||(t|)*2,ttL");
  // Its stage 4 (rank 0, vp stage 1) is empty, and torchtitan's optimizer
  // refuses a model part without parameters: no lists, and why.
  EXPECT_TRUE(j["torchtitan_module_fqns_per_model_part"].is_null());
  EXPECT_EQ(j["torchtitan_refusal"].get<std::string>().rfind(
                "torchtitan: no module lists, as stage 4 (rank 0, vp stage 1) is empty", 0),
            0u)
      << j["torchtitan_refusal"];
  auto full = RunPpsim("layout 'Et|tt|t|tt|t|t|t|ttL' -P 4 --json");
  ASSERT_EQ(full.exit_code, 0) << full.err;
  EXPECT_EQ(nlohmann::json::parse(full.out)["torchtitan_module_fqns_per_model_part"][7],
            nlohmann::json({"layers.9", "layers.10", "norm", "lm_head"}));
}

TEST(LayoutCli, TextIsATableAndTheWriteBacks) {
  auto run = RunPpsim("layout 'Et*3|(tt|)*29,m|L' -P 16");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("P = 16, v = 2, 61 decoder layers, 1 MTP layer"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n0         Et*3 (0-2)   tt (33-34)\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n14        tt (29-30)   m\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("megatron: --pipeline-model-parallel-size 16 --pipeline-model-parallel-layout "
                         "'Et*3|(tt|)*29,m|L' --num-layers 61 --mtp-num-layers 1\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("torchtitan: no module lists, as torchtitan refuses pipeline parallelism with MTP"),
            std::string::npos);
}

TEST(LayoutCli, WarnsWhereMegatronBuildsTheEmbeddingElsewhere) {
  auto run = RunPpsim("layout '|Ett|tt|ttL' -P 4");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err,
            "ppsim: warning: layout (column 2): E is written in stage 1 (pp 1, vp 0), but Megatron builds "
            "the embedding on pp 0, vp 0\n");
  EXPECT_NE(run.out.find("megatron: --pipeline-model-parallel-size 4 --pipeline-model-parallel-layout 'E|(tt|)*2,ttL'"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("[[\"tok_embeddings\"], [\"layers.0\", \"layers.1\"]"), std::string::npos) << run.out;
}

TEST(LayoutCli, RefusalsAreOneLineWithTheirCode) {
  struct Case {
    std::string args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"'E|(t|)*3,m|m||L' -P 4", 5,
       "ppsim: layout (column 10): 1 of the 2 MTP layers in virtual stage 4: Megatron needs all of them in one "
       "virtual stage\n"},
      {"'tE|tL' -P 2", 3, "ppsim: layout (column 1): the first layer must be the embedding E, got a decoder layer t\n"},
      {"'Et|t|tL' -P 2", 3, "ppsim: layout (column 6): 3 stages, not a multiple of P = 2\n"},
      {"'Et|tL' -P 1 --chunks 1", 3,
       "ppsim: layout (column 4): 2 stages, but P·chunks = 1·1 (Megatron: the virtual pipeline size conflicts with "
       "the layout)\n"},
      {"'Ett|tL' -P 2 --num-layers 4", 3, "ppsim: layout (column 5): 3 decoder layers (t), but num_layers is 4\n"},
      {"'E|((t)*2)*3|L' -P 3", 7,
       "ppsim: layout (column 4): '(' is not a layer: E, t, m, L, | or a repeat (X)*n, X*n\n"},
      {"'E(t|)*99999999999L' -P 2", 6, "ppsim: layout (column 2): the repeat unrolls to more than 1048576 letters\n"},
      {"'EtL' -P 0", 3, "ppsim: -P must be ≥ 1, got 0\n"},
      {"'EtL' -P x", 3, "ppsim: -P: 'x' is not a whole number\n"},
      {"'EtL' -P 1 --num-layers -1", 3, "ppsim: --num-layers must be ≥ 0, got -1\n"},
      {"'EtL'", 3, "ppsim: -P is required: the pipeline ranks\n"},
  };
  for (const Case& c : cases) {
    auto run = RunPpsim("layout " + c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

// Without a string, Megatron's split flags: the same per-stage counts as
// Megatron computes, written as the layout string that gives them.
TEST(LayoutCli, MegatronsSplitFlagsInsteadOfAString) {
  auto run = RunPpsim("layout -P 8 --num-layers 61 --mtp-layers 1 --decoder-first-pipeline-num-layers 5 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["megatron_layout"], "Et*5|(t*8|)*6,t*8mL");
  EXPECT_EQ(j["stages"][0][0]["num_decoder_layers"], 5);
  EXPECT_EQ(j["stages"][7][0]["decoder_layer_ids"][0], 53);
  run = RunPpsim(
      "layout -P 4 --num-layers 14 --account-for-embedding-in-pipeline-split "
      "--account-for-loss-in-pipeline-split");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("--pipeline-model-parallel-layout 'Et*3|(t*4|)*2,t*3L'"), std::string::npos) << run.out;
  struct Case {
    std::string args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"-P 4 --num-layers 7", 5, "ppsim: --num-layers: 7 layers are not divisible by P = 4\n"},
      {"-P 4", 3, "ppsim: --num-layers is required without a layout string\n"},
      {"-P 4 --num-layers 8 --decoder-first-pipeline-num-layers 0", 3,
       "ppsim: --decoder-first-pipeline-num-layers must be ≥ 1, got 0\n"},
      {"-P 4 --num-layers 8 --decoder-first-pipeline-num-layers 2 --account-for-loss-in-pipeline-split", 5,
       "ppsim: --decoder-first-pipeline-num-layers cannot be given with account_for_embedding_in_pipeline_split or "
       "account_for_loss_in_pipeline_split (Megatron's TransformerConfig)\n"},
      {"'Et|tL' -P 2 --decoder-first-pipeline-num-layers 1", 5,
       "ppsim: a layout string cannot be given with Megatron's split flags (decoder_first/last_pipeline_num_layers, "
       "account_for_embedding/loss_in_pipeline_split), as Megatron refuses them together\n"},
  };
  for (const Case& c : cases) {
    auto bad = RunPpsim("layout " + c.args);
    EXPECT_EQ(bad.exit_code, c.code) << c.args << ": " << bad.err;
    EXPECT_EQ(bad.err, c.err) << c.args;
    EXPECT_EQ(bad.out, "") << c.args;
  }
}

}  // namespace
}  // namespace ppsim

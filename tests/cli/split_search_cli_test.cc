// `ppsim search --model FILE` through the shipped binary: the split found
// is written as a Megatron layout string that ppsim's own reader reads back
// as the same stages, it is never longer than the even split or Megatron's
// split flags on the same budget, and bad input is one line with its code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

class ModelFile {
 public:
  explicit ModelFile(const std::string& text)
      : path_("/tmp/ppsim_split_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) + ".toml") {
    std::ofstream(path_) << text;
  }
  ~ModelFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

const char* const kSmall = R"([[layer]]
kind = "embedding"
F = 2
B = 2
W = 2
param_bytes = 1000
[[layer]]
kind = "decoder"
repeat = 6
F = 2
B = 2
W = 1
activation_bytes = 100
param_bytes = 500
[[layer]]
kind = "loss"
F = 3
B = 3
W = 3
param_bytes = 1000
)";

// The decoder layers of each stage `ppsim layout` reads from `layout`.
std::vector<int> ReadBack(const std::string& layout, int P) {
  auto run = RunPpsim("layout '" + layout + "' -P " + std::to_string(P) + " --json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  std::vector<int> out(static_cast<size_t>(j["v"].get<int>() * P));
  for (const auto& rank : j["stages"])
    for (const auto& s : rank) out[s["virtual_stage"].get<size_t>()] = s["num_decoder_layers"].get<int>();
  return out;
}

TEST(SplitSearchCli, LayoutStringReadsBackAsTheSameStages) {
  const ModelFile model(kSmall);
  auto run = RunPpsim("search --model " + model.path() + " -P 2 -M 4 --memory-limit 1MiB --placement loop --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  const auto found = j["decoder_layers_per_stage"].get<std::vector<int>>();
  const std::string layout = j["compared"][0]["layout"];
  EXPECT_EQ(ReadBack(layout, 2), found) << layout;
  EXPECT_NE(j["megatron"].get<std::string>().find("--pipeline-model-parallel-layout '" + layout + "'"),
            std::string::npos);
  // Loop v=1 and v=2 at P = 2 have few splits: all enumerated, so the result is proven or bounded exactly.
  for (const auto& f : j["families"]) EXPECT_TRUE(f["exhaustive"].get<bool>()) << f;
  for (const auto& row : j["compared"]) {
    if (row["fits"].get<bool>()) {
      EXPECT_LE(j["makespan"].get<long long>(), row["makespan"].get<long long>()) << row;
    }
  }
  EXPECT_LE(j["lower_bound"].get<long long>(), j["makespan"].get<long long>());
}

// A budget only splits with an empty stage meet (tests/core/split_search_test.cc
// finds this model by brute force): the search finds one, and its layout
// string, with the empty stage written `||`-style, reads back the same.
TEST(SplitSearchCli, AnEmptyStageSplitIsFoundAndWrittenAsALayout) {
  std::string text;
  for (const char* layer : {"embedding\"\nF = 1\nB = 4\nW = 1\nparam_bytes = 300",
                            "decoder\"\nF = 1\nB = 1\nW = 1\nactivation_bytes = 20\nparam_bytes = 400",
                            "decoder\"\nF = 4\nB = 4\nW = 3\nactivation_bytes = 40\nparam_bytes = 350",
                            "decoder\"\nF = 2\nB = 3\nW = 4\nactivation_bytes = 20\nparam_bytes = 150",
                            "decoder\"\nF = 4\nB = 1\nW = 4\nactivation_bytes = 50\nparam_bytes = 300",
                            "decoder\"\nF = 2\nB = 2\nW = 3\nactivation_bytes = 20\nparam_bytes = 400",
                            "loss\"\nF = 2\nB = 2\nW = 0\nparam_bytes = 100"})
    text += std::string("[[layer]]\nkind = \"") + layer + "\n";
  const ModelFile model(text);
  auto run = RunPpsim("search --model " + model.path() + " -P 3 -M 3 --comm 1 --memory-limit 6000 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  const auto found = j["decoder_layers_per_stage"].get<std::vector<int>>();
  EXPECT_EQ(found, (std::vector<int>{1, 1, 1, 0, 1, 1}));
  EXPECT_EQ(j["makespan"].get<long long>(), 74);
  const std::string layout = j["compared"][0]["layout"];
  EXPECT_EQ(layout, "Et|(t|)*2,|t|tL");
  EXPECT_EQ(ReadBack(layout, 3), found);
  for (size_t i = 1; i < j["compared"].size(); ++i) EXPECT_FALSE(j["compared"][i]["fits"].get<bool>());
  // The same model as the example docs/search.md shows: the same split. Its
  // empty stage gets no torchtitan lists (torchtitan's optimizer refuses a
  // model part without parameters), and the line says which stage.
  auto example = RunPpsim("search --model " PPSIM_SOURCE_DIR
                          "/examples/models/empty_stage.toml -P 3 -M 3 --comm 1 --memory-limit 6000 --json");
  ASSERT_EQ(example.exit_code, 0) << example.err;
  const nlohmann::json e = nlohmann::json::parse(example.out);
  EXPECT_EQ(e["compared"][0]["layout"], layout);
  EXPECT_EQ(e["torchtitan"],
            "none: torchtitan: no module lists, as stage 3 (rank 0, vp stage 1) is empty and torchtitan builds an "
            "optimizer for each model part, which refuses a part without parameters (\"matched no parameters\", "
            "components/optimizer/optimizer.py)");
}

// torchtitan's configuration is written as its config registry sets fields
// (no TOML job files since torchtitan #2386), with a schedule name
// PyTorch's get_schedule_class knows: with a CSV, PipelineScheduleMulti.
TEST(SplitSearchCli, TorchtitanConfigurationIsWhatTorchtitanReads) {
  auto run = RunPpsim("search --model " PPSIM_SOURCE_DIR
                      "/examples/models/llama_like.toml -P 4 -M 16 --memory-limit 80GiB --placement loop --chunks 1 "
                      "--time-limit 600");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const size_t at = run.out.find("\ntorchtitan:\n");
  ASSERT_NE(at, std::string::npos) << run.out;
  const std::string fragment = run.out.substr(at, run.out.find("\npytorch csv", at) - at);
  EXPECT_NE(fragment.find("\nconfig.parallelism.pipeline_parallel_degree = 4\n"
                          "config.parallelism.pipeline_parallel_schedule = \"PipelineScheduleMulti\"\n"
                          "config.parallelism.pipeline_parallel_schedule_csv = \"schedule.csv\"  # the CSV below\n"
                          "config.parallelism.num_pp_microbatches = 16\n"
                          "config.parallelism.module_fqns_per_model_part = [\n  [\"tok_embeddings\", \"layers.0\""),
            std::string::npos)
      << fragment;
  EXPECT_EQ(fragment.find("_PipelineScheduleRuntime"), std::string::npos) << fragment;
  EXPECT_NE(fragment.find("\"norm\", \"lm_head\"]\n]\n"), std::string::npos) << fragment;
  // A V split names ZBVZeroBubble, which places the lists V-shaped.
  auto v = RunPpsim("search --model " PPSIM_SOURCE_DIR
                    "/examples/models/llama_like.toml -P 4 -M 16 --memory-limit 80GiB --placement vshape "
                    "--time-limit 600 --json");
  ASSERT_EQ(v.exit_code, 0) << v.err;
  const nlohmann::json j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["decoder_layers_per_stage"], nlohmann::json({4, 4, 4, 4, 4, 4, 5, 3}));
  EXPECT_NE(j["torchtitan"].get<std::string>().find(
                "config.parallelism.pipeline_parallel_schedule = \"ZBVZeroBubble\"  # places the lists V-shaped"),
            std::string::npos)
      << j["torchtitan"];
}

// A V-shaped split has no Megatron layout string (a string runs its stages
// in loop order): the search says so in one line and writes none, while
// torchtitan's fragment and the CSV still run it.
TEST(SplitSearchCli, AVShapedSplitHasNoLayoutStringAndSaysWhy) {
  const ModelFile model(kSmall);
  const std::string args = "search --model " + model.path() + " -P 2 -M 4 --memory-limit 1MiB --placement vshape";
  auto run = RunPpsim(args + " --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["placement"], "vshape");
  EXPECT_EQ(j["compared"][0]["layout"], "");
  const std::string why =
      "none: a layout string runs its i-th stage on rank i mod P with data in string order (loop), and this split "
      "is V-shaped (stage 2 on rank 1), so no string places it; torchtitan's V schedule or the PyTorch CSV below "
      "run it";
  EXPECT_EQ(j["megatron"], why);
  // The optimum here leaves stage 1 empty, and torchtitan's optimizer
  // refuses a model part without parameters: no module lists (a V split
  // without an empty stage gets ZBVZeroBubble's, TorchtitanConfiguration...).
  EXPECT_EQ(j["decoder_layers_per_stage"], nlohmann::json({1, 0, 4, 1}));
  EXPECT_EQ(j["torchtitan"].get<std::string>().rfind(
                "none: torchtitan: no module lists, as stage 1 (rank 1, vp stage 0) is empty", 0),
            0u)
      << j["torchtitan"];
  auto text = RunPpsim(args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\nmegatron: " + why + "\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("| found (v-shape), no layout string (V placement) | "), std::string::npos) << text.out;
}

// On the Llama-like example every V and 2-chunk seed's bound reaches loop
// v=1's best; the search still descends into those families, so searching
// them all is never longer than searching each placement alone. The search
// ends on its own (0.2 s here); the time limit is far above that so that a
// slow build (ASan: over 2 s, the default limit) gives the same answer.
TEST(SplitSearchCli, AllFamiliesAreNoWorseThanEachAlone) {
  const std::string args = "search --model " PPSIM_SOURCE_DIR
                           "/examples/models/llama_like.toml -P 4 -M 16 --memory-limit 80GiB --time-limit 600 --json";
  auto all = RunPpsim(args), loop = RunPpsim(args + " --placement loop"), v = RunPpsim(args + " --placement vshape");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ASSERT_EQ(loop.exit_code, 0) << loop.err;
  ASSERT_EQ(v.exit_code, 0) << v.err;
  const long long a = nlohmann::json::parse(all.out)["makespan"], l = nlohmann::json::parse(loop.out)["makespan"],
                  w = nlohmann::json::parse(v.out)["makespan"];
  EXPECT_LE(a, l);
  EXPECT_LE(a, w);
  EXPECT_EQ(a, 4497312);  // the V split 4 4 4 4 4 4 5 3 (loop v=1's best, 8 9 9 6, takes 4628312)
}

TEST(SplitSearchCli, DeepSeekExampleGivesALayoutMegatronAndPpsimRead) {
  auto run = RunPpsim(
      "search --model " PPSIM_SOURCE_DIR
      "/examples/models/deepseek_v3_like.toml -P 8 -M 32 --memory-limit 80GiB --placement loop --time-limit 3 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  const auto found = j["decoder_layers_per_stage"].get<std::vector<int>>();
  int sum = 0;
  for (int d : found) sum += d;
  EXPECT_EQ(sum, 61);
  EXPECT_EQ(ReadBack(j["compared"][0]["layout"], 8), found);
  EXPECT_GT(j["lower_bound"].get<long long>(), 0);
  EXPECT_LE(j["lower_bound"].get<long long>(), j["makespan"].get<long long>());
  EXPECT_LE(j["compared"][0]["peak_bytes"].get<long long>(), 85899345920LL);
  EXPECT_EQ(j["compared"][1]["name"], "even (7 or 8 per rank)");
}

TEST(SplitSearchCli, BadInputIsOneLineWithItsCode) {
  const ModelFile model(kSmall);
  const ModelFile unknown("[[layer]]\nkind = \"moe\"\n");
  const std::string m = "search --model " + model.path() + " -P 2 -M 4";
  struct Case {
    std::string args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      // E and L hold 8·1000 static bytes each, a layer 8·500 + 100: the lightest split, E + 3 layers | 3 layers
      // + L, needs 8000 + 3·4100 = 20300 on each rank.
      {m + " --memory-limit 1000", 5,
       "ppsim: --memory-limit 1000 bytes is below what the lightest split needs: the minimum that works is 20300 "
       "(static bytes + one microbatch's activations on the fullest device)\n"},
      {m + " --memory-limit 80XB", 3,
       "ppsim: --memory-limit: '80XB' is not a size in bytes (e.g. 85899345920, 80GiB, 80GB)\n"},
      {m, 2,
       "ppsim: --memory-limit is required with a model: the budget in bytes per device the split must fit (e.g. "
       "80GiB)\n"},
      {m + " --memory-limit 1GiB --cost F=2", 2,
       "ppsim: --model takes its costs and bytes from the model's layers, and the budget from --memory-limit: drop "
       "--cost, --cost-file, --max-activations and --layout\n"},
      {m + " --memory-limit 1GiB --placement wave", 3, "ppsim: --placement: 'wave' is not one of loop, vshape\n"},
      {"search --model " + unknown.path() + " -P 2 -M 4 --memory-limit 1GiB", 4,
       "ppsim: " + unknown.path() + ":2:8: kind: 'moe' is not a layer kind (embedding, decoder, mtp, loss)\n"},
  };
  for (const Case& c : cases) {
    auto run = RunPpsim(c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// The scene of the even split against the found one: its claims hold.
TEST(SplitSearchCli, EvenVsFoundSceneClaimsHold) {
  auto run = testing::RunPpsim("check " PPSIM_SOURCE_DIR "/examples/split_even_vs_found.toml");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("makespan(Found) = 13978671, makespan(Even) = 16556316"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("all 2 claims hold"), std::string::npos);
}

TEST(SplitSearchCli, SceneLayoutWithoutAModelIsOneLine) {
  const std::string path = "/tmp/ppsim_split_scene_" + std::to_string(::getpid()) + ".toml";
  std::ofstream(path) << "P = 2\nM = 2\n[[run]]\nname = \"A\"\nschedule = \"1f1b\"\nlayout = \"Et|tL\"\n";
  auto run = testing::RunPpsim("check " + path);
  std::remove(path.c_str());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "ppsim: " + path +
                         ":6:11: layout needs the scene's model = \"FILE\" (docs/costs.md): the layers it splits\n");
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace ppsim

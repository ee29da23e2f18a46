// `ppsim simulate --model FILE --layout STRING` through the shipped binary:
// the model's layers summed into the layout's stages run exactly as the same
// per-stage costs typed by hand, and each bad input is one line with its code.
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

// A model file in /tmp, removed at the end of the test.
class ModelFile {
 public:
  explicit ModelFile(const std::string& text)
      : path_("/tmp/ppsim_model_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) + ".toml") {
    std::ofstream(path_) << text;
  }
  ~ModelFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

const char* const kModel = R"([[layer]]
kind = "embedding"
F = 1
B = 1
W = 1
[[layer]]
kind = "decoder"
repeat = 4
F = 2
B = 2
W = 1
activation_bytes = 1000
[[layer]]
kind = "loss"
F = 1
B = 1
)";

TEST(ModelCli, RunsAsTheSamePerStageCostsByHand) {
  const ModelFile model(kModel);
  auto from_model =
      RunPpsim("simulate -s interleaved -P 2 -M 4 --model " + model.path() + " --layout 'Et|t|t|tL' --json");
  ASSERT_EQ(from_model.exit_code, 0) << from_model.err;
  auto by_hand = RunPpsim(
      "simulate -s interleaved -P 2 --chunks 2 -M 4 --cost F=3:2:2:3,B=3:2:2:3,W=2:1:1:1 --cost-per chunk --json");
  ASSERT_EQ(by_hand.exit_code, 0) << by_hand.err;
  const nlohmann::json a = nlohmann::json::parse(from_model.out), b = nlohmann::json::parse(by_hand.out);
  EXPECT_EQ(a["v"], 2);
  EXPECT_EQ(a["makespan"], b["makespan"]);
  EXPECT_EQ(a["ops"], b["ops"]);
  EXPECT_EQ(a["busy"], b["busy"]);
}

// A model's bytes: parameters, gradients and Adam's mixed-precision state
// (8 × param_bytes) per device, and held activations; recomputing the
// decoder layers keeps only their checkpoints until R runs their forward again.
TEST(ModelCli, MemoryPerDeviceAndRecompute) {
  const std::string layers = R"([[layer]]
kind = "embedding"
F = 1
B = 1
W = 1
param_bytes = 100
[[layer]]
kind = "decoder"
repeat = 4
F = 2
B = 2
W = 1
activation_bytes = 1000
checkpoint_bytes = 10
param_bytes = 50
[[layer]]
kind = "loss"
F = 1
B = 1
)";
  const ModelFile plain(layers), recomputed("recompute = [\"decoder\"]\n" + layers);
  const std::string args = " -s 1f1b -P 2 -M 4 --layout 'Ett|ttL' --json";
  auto a = RunPpsim("simulate --model " + plain.path() + args);
  auto b = RunPpsim("simulate --model " + recomputed.path() + args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const nlohmann::json x = nlohmann::json::parse(a.out), y = nlohmann::json::parse(b.out);
  EXPECT_EQ(x["static_bytes_per_device"], nlohmann::json::parse("[1600, 800]"));  // (100 + 2·50)·8, 2·50·8
  // Rank 0 holds two microbatches of two decoder layers at its peak (1F1B's warm-up).
  EXPECT_EQ(x["peak_bytes_per_device"], nlohmann::json::parse("[5600, 800]"));
  EXPECT_EQ(y["static_bytes_per_device"], x["static_bytes_per_device"]);
  // Recompute as an op R (recompute.h): rank 0 holds one microbatch's two
  // layers in full while R rebuilds them (2000) and the other's checkpoints
  // (2·10); rank 1, the last stage, holds its set only while R runs.
  EXPECT_EQ(y["peak_bytes_per_device"], nlohmann::json::parse("[3620, 2800]"));
  EXPECT_EQ(x["costs"]["B"], nlohmann::json::parse("[8, 7]"));
  EXPECT_EQ(y["costs"]["B"], x["costs"]["B"]);
  EXPECT_EQ(y["costs"]["R"], nlohmann::json::parse("[4, 4]"));  // the two recomputed layers' F
  EXPECT_EQ(y["recompute"], "selective");
  EXPECT_EQ(y["busy"].get<int>() - x["busy"].get<int>(), 2 * 4 * 4);  // both ranks, M = 4
}

TEST(ModelCli, BadInputIsOneLineWithItsCode) {
  const ModelFile model(kModel);
  const ModelFile unknown("[[layer]]\nkind = \"moe\"\n");
  const std::string m = " --model " + model.path();
  struct Case {
    std::string args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"-P 2" + m + " --layout 'Et|ttL'", 3, "ppsim: layout (column 5): 3 decoder layers (t), but num_layers is 4\n"},
      {"-s zbv -P 2 -M 4" + m + " --layout 'Et|t|t|tL'", 5,
       "ppsim: --layout: Megatron runs stage i on rank i mod P, and zbv places its stages otherwise "
       "(docs/layouts.md)\n"},
      {"-P 2" + m, 2, "ppsim: --model needs a layout: how its layers split into stages (docs/layouts.md)\n"},
      {"-P 2 --layout 'Et|tL'", 2, "ppsim: --layout needs a model: the layers it splits (docs/costs.md)\n"},
      {"-P 2 --cost F=2" + m + " --layout 'Et|t|t|tL'", 2,
       "ppsim: --cost cannot be given with a model: its layers give the costs\n"},
      {"-P 1 --model " + unknown.path() + " --layout 'EL'", 4,
       "ppsim: " + unknown.path() + ":2:8: kind: 'moe' is not a layer kind (embedding, decoder, mtp, loss)\n"},
  };
  for (const Case& c : cases) {
    auto run = RunPpsim("simulate " + c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
}

}  // namespace
}  // namespace ppsim

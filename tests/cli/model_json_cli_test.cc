// `--model x.json` through the shipped binary: the JSON twin of a model file
// simulates and splits exactly as the TOML does (the same output, byte for
// byte), and each bad value is one line naming its JSON path, with the
// TOML's exit code and no output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::TempFile;

const char* const kToml = R"(recompute = ["decoder"]
[bytes_per_param]
grad = 4
[[layer]]
kind = "embedding"
F = 1
B = 1
W = 1
param_bytes = 2000
[[layer]]
kind = "decoder"
repeat = 4
F = 2
B = 2
W = 1
activation_bytes = 1000
checkpoint_bytes = 100
param_bytes = 500
[[layer]]
kind = "loss"
F = 1
B = 1
W = 1
)";

const char* const kJson = R"({"recompute": ["decoder"], "bytes_per_param": {"grad": 4}, "layer": [
  {"kind": "embedding", "F": 1, "B": 1, "W": 1, "param_bytes": 2000},
  {"kind": "decoder", "repeat": 4, "F": 2, "B": 2, "W": 1, "activation_bytes": 1000, "checkpoint_bytes": 100,
   "param_bytes": 500},
  {"kind": "loss", "F": 1, "B": 1, "W": 1}]}
)";

TEST(ModelJsonCli, RunsAndSplitsAsTheToml) {
  const TempFile toml("json_twin.toml", kToml), json("json_twin.json", kJson);
  for (const std::string& args : {std::string("simulate -s interleaved -P 2 -M 4 --layout 'Et|t|t|tL' --json"),
                                  std::string("simulate -s 1f1b -P 2 -M 4 --layout 'Ett|ttL'"),
                                  std::string("search -P 2 -M 4 --memory-limit 1MiB --placement loop")}) {
    auto a = RunPpsim(args + " --model " + toml.path()), b = RunPpsim(args + " --model " + json.path());
    ASSERT_EQ(a.exit_code, 0) << args << ": " << a.err;
    ASSERT_EQ(b.exit_code, 0) << args << ": " << b.err;
    if (args.rfind("search", 0) == 0) {  // all but the line with the seconds it took
      a.out.erase(a.out.find("splits:"), a.out.find('\n', a.out.find("splits:")) - a.out.find("splits:"));
      b.out.erase(b.out.find("splits:"), b.out.find('\n', b.out.find("splits:")) - b.out.find("splits:"));
    }
    EXPECT_EQ(a.out, b.out) << args;
    EXPECT_NE(a.out.find("makespan"), std::string::npos) << args;
  }
}

TEST(ModelJsonCli, BadValuesNameTheirJsonPath) {
  const TempFile negative("neg.json", R"({"layer": [{"kind": "embedding"}, {"kind": "decoder", "F": -1}]})");
  const TempFile kind("kind.json", R"({"layer": [{"kind": "moe"}]})");
  const TempFile syntax("syntax.json", "{\"layer\": [\n  {\"kind\": \"decoder\",}\n]}");
  const TempFile recompute("rec.json", R"({"recompute": ["moe"], "layer": [{"kind": "decoder", "F": 1}]})");
  const TempFile overflow("big.json", R"({"layer": [{"kind": "decoder", "F": 1e999}]})");
  struct Case {
    std::string args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {"simulate -P 1 --layout 'Et' --model " + negative.path(), 3,
       "ppsim: " + negative.path() + ": layer[1].F must be ≥ 0, got -1\n"},
      {"search -P 2 -M 2 --memory-limit 1GiB --model " + kind.path(), 4,
       "ppsim: " + kind.path() + ": layer[0].kind: 'moe' is not a layer kind (embedding, decoder, mtp, loss)\n"},
      {"simulate -P 1 --layout 't' --model " + recompute.path(), 4,
       "ppsim: " + recompute.path() +
           ": recompute[0]: 'moe' is neither a layer kind (embedding, decoder, mtp, loss) nor the name of a layer "
           "of this model\n"},
      // Exited 70 ("internal error") until the model_json fuzz target found it.
      {"simulate -P 1 --layout 't' --model " + overflow.path(), 7,
       "ppsim: " + overflow.path() + ": the value of \"F\": number overflow parsing '1e999'\n"},
  };
  for (const Case& c : cases) {
    auto run = RunPpsim(c.args);
    EXPECT_EQ(run.exit_code, c.code) << c.args << ": " << run.err;
    EXPECT_EQ(run.err, c.err) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
  auto run = RunPpsim("simulate -P 1 --layout 't' --model " + syntax.path());
  EXPECT_EQ(run.exit_code, 7) << run.err;
  EXPECT_EQ(run.err.rfind("ppsim: " + syntax.path() + ":2:", 0), 0u) << run.err;
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << run.err;
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace ppsim

// Empty stages through the shipped binary (issue 27, item 3): a layout
// stage with no layer runs ops of no duration that keep their place in the
// order and pass data on, so the pipeline runs as if the stage were not
// there, its device idle; `validate` accepts the timeline because it declares
// those costs 0; pictures draw the ops as thin lines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using ::testing::HasSubstr;
using testing::RunPpsim;

using testing::TempFile;

// Embedding, four decoder layers (F 2, B 2, W 1), loss: "Ett||ttL" at P = 3
// leaves rank 1 without a layer; stages 0 and 2 are F 5, B + W 8.
const char* const kModel = R"([[layer]]
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
activation_bytes = 20
param_bytes = 100
[[layer]]
kind = "loss"
F = 1
B = 1
W = 1
param_bytes = 50
)";

nlohmann::json Simulate(const std::string& args) {
  auto run = RunPpsim("simulate " + args + " --json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out, nullptr, false);
}

TEST(EmptyStageCli, RunsAsIfTheStageWereNotThere) {
  const TempFile model("model.toml", kModel);
  const nlohmann::json gap = Simulate("-s 1f1b -P 3 -M 4 --model " + model.path() + " --layout 'Ett||ttL'");
  const nlohmann::json two = Simulate("-s 1f1b -P 2 -M 4 --model " + model.path() + " --layout 'Ett|ttL'");
  // (M + P' - 1)(F + B + W) over the two ranks with layers: 5 x 13.
  EXPECT_EQ(gap["makespan"], 65);
  EXPECT_EQ(two["makespan"], 65);
  EXPECT_EQ(gap["busy"], two["busy"]);
  EXPECT_EQ(gap["idle"].get<int>() - two["idle"].get<int>(), 65);  // rank 1 idle throughout
  int zero_ops = 0;
  for (const auto& op : gap["ops"]) {
    if (op["stage"] != 1) continue;
    EXPECT_EQ(op["device"], 1);
    EXPECT_EQ(op["start"], op["end"]) << op.dump();
    ++zero_ops;
  }
  EXPECT_EQ(zero_ops, 8);  // F and B of 4 microbatches: each keeps its place
  // It passes data on: F0 on stage 2 starts when F0 on stage 0 ends.
  auto at = [&](const char* kind, int stage, const char* field) {
    for (const auto& op : gap["ops"])
      if (op["kind"] == kind && op["microbatch"] == 0 && op["stage"] == stage) return op[field].get<int>();
    return -1;
  };
  EXPECT_EQ(at("F", 2, "start"), at("F", 0, "end"));
  EXPECT_EQ(at("F", 0, "end"), 5);
  auto text = RunPpsim("simulate -s 1f1b -P 3 -M 4 --model " + model.path() + " --layout 'Ett||ttL'");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("peak bytes per device 2520 0 2000"));
  EXPECT_THAT(text.out, HasSubstr("per device 3 0 0"));  // an empty stage holds no activation
}

TEST(EmptyStageCli, ValidateAcceptsOnlyDeclaredZeroCosts) {
  const TempFile model("model2.toml", kModel);
  auto run = RunPpsim("simulate -s 1f1b -P 3 -M 4 --model " + model.path() + " --layout 'Ett||ttL' --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const TempFile ok("ok.json", run.out);
  auto legal = RunPpsim("validate " + ok.path());
  EXPECT_EQ(legal.exit_code, 0) << legal.err;
  EXPECT_THAT(legal.out, HasSubstr("legal and tight, makespan 65"));
  // The same ops with stage 1's forward declared to cost 1: F0@s1 at [5, 5) is now wrong.
  nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["costs"]["F"][1], 0);
  j["costs"]["F"][1] = 1;
  const TempFile bad("bad.json", j.dump());
  auto refused = RunPpsim("validate " + bad.path());
  EXPECT_EQ(refused.exit_code, 10);
  EXPECT_THAT(refused.out + refused.err, HasSubstr("duration: F0@s1 has no positive duration: [5, 5)"));
}

TEST(EmptyStageCli, DrawnAsThinLines) {
  const TempFile model("model3.toml", kModel);
  const std::string scene_text = "title = \"An empty stage\"\nmodel = \"" + model.path() +
                                 "\"\nP = 3\nM = 4\n[[run]]\nname = \"Gap\"\nschedule = \"1f1b\"\n"
                                 "layout = \"Ett||ttL\"\n";
  const TempFile scene("scene.toml", scene_text);
  const std::string svg_path = scene.path() + ".svg";
  auto run = RunPpsim("render " + scene.path() + " -o " + svg_path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string svg = testing::Slurp(svg_path);
  std::remove(svg_path.c_str());
  EXPECT_THAT(svg, HasSubstr("thin line: an op of no duration"));
  // The 8 ops of rank 1 as 3 px lines as tall as a device row, 4 forward-blue, 4 backward-orange.
  const std::regex line("<rect x=\"[0-9]+\" y=\"[0-9]+\" width=\"3\" height=\"([0-9]+)\" fill=\"(#[0-9a-f]+)\"/>");
  int blue = 0, orange = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it) {
    if (std::stoi((*it)[1]) < 20) continue;  // the legend's swatch
    blue += (*it)[2] == "#265696";
    orange += (*it)[2] == "#faa03c";
  }
  EXPECT_EQ(blue, 4);
  EXPECT_EQ(orange, 4);
  auto chart = RunPpsim("simulate -s 1f1b -P 3 -M 4 --model " + model.path() + " --layout 'Ett||ttL' --format text");
  ASSERT_EQ(chart.exit_code, 0) << chart.err;
  EXPECT_THAT(chart.out, HasSubstr("d1    .....|....|....")) << chart.out;
}

}  // namespace
}  // namespace ppsim

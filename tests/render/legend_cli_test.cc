// The legend as `ppsim render` draws it: it lists only the kinds drawn, and
// a rule that holds for some runs only (what ·c1 means, an overlapped pair)
// names the runs it holds for, so that two rules with the same swatch and
// different meanings are never left for the reader to match to their runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::Slurp;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// The texts of an SVG's <text> elements, in order.
std::vector<std::string> Texts(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex text("<text[^>]*>([^<]*)</text>");
  for (std::sregex_iterator it(svg.begin(), svg.end(), text), end; it != end; ++it) out.push_back((*it)[1]);
  return out;
}

std::vector<std::string> LegendOf(const std::string& scene_text, const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("ppsim_legend_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::create_directories(dir);
  const std::string scene = (dir / "scene.toml").string(), svg = (dir / "out.svg").string();
  std::ofstream(scene) << scene_text;
  const testing::ToolRun run = RunPpsim("render " + scene + " -o " + svg);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> texts = Texts(Slurp(svg));
  std::filesystem::remove_all(dir);
  return texts;
}

TEST(LegendCli, EachChunkRuleNamesTheRunItHoldsFor) {
  const std::vector<std::string> texts = LegendOf(R"toml(title = "two ways back"
P = 4
M = 8
[[run]]
name = "DualPipe"
schedule = "dualpipe"
[[run]]
name = "DualPipeV"
schedule = "dualpipev"
)toml",
                                                  "dual");
  // DualPipe's c1 is its second pipeline, DualPipeV's the way back of its V:
  // the same swatch, two meanings, each beside its run's name.
  EXPECT_THAT(texts, Contains("DualPipe: F4\u00B7c1 or a dark base = reverse direction: microbatches 4\u20137 enter "
                              "at d3 and run to d0"));
  EXPECT_THAT(texts, Contains("DualPipeV: F3\u00B7c1 or a dark base = a device's second stage, on the way back "
                              "(reverse direction)"));
  // Both overlap F and B: one rule for both, so no name.
  EXPECT_THAT(texts, Contains("F above B in one cell = an overlapped F+B pair: a forward and a backward computed "
                              "together"));
  int c1_rules = 0;
  for (const std::string& t : texts) c1_rules += t.find("or a dark base") != std::string::npos;
  EXPECT_EQ(c1_rules, 2);
}

TEST(LegendCli, ARuleOfOneRunAmongOthersIsNamed) {
  const std::vector<std::string> texts = LegendOf(R"toml(title = "one V"
P = 4
M = 8
[[run]]
name = "1F1B"
schedule = "1f1b"
[[run]]
name = "ZB-V"
schedule = "zbv"
)toml",
                                                  "onev");
  EXPECT_THAT(texts, Contains("ZB-V: F3\u00B7c1 or a dark base = a device's second stage, on the way back (reverse "
                              "direction)"));
  EXPECT_THAT(texts, Contains("weight-grad (W)"));  // ZB-V's W
  EXPECT_THAT(texts, Contains("whole backward (B + W in one op)"));  // 1F1B's
  EXPECT_THAT(texts, Contains("input-gradient backward (B)"));       // ZB-V's
  for (const std::string& t : texts) EXPECT_THAT(t, Not(HasSubstr("overlapped"))) << "no pair is drawn";
}

TEST(LegendCli, OnlyTheKindsDrawnAreListed) {
  const std::vector<std::string> texts = LegendOf(R"toml(title = "no split"
P = 4
M = 6
[[run]]
name = "GPipe"
schedule = "gpipe"
[[run]]
name = "1F1B"
schedule = "1f1b"
)toml",
                                                  "plain");
  EXPECT_THAT(texts, Contains("forward (F)"));
  EXPECT_THAT(texts, Contains("backward (B + W in one op)"));
  for (const std::string& t : texts) {
    EXPECT_THAT(t, Not(HasSubstr("weight-grad"))) << "no W is drawn";
    EXPECT_THAT(t, Not(HasSubstr("input-gradient"))) << "no split B is drawn";
    EXPECT_THAT(t, Not(HasSubstr("dark base"))) << "no later chunk is drawn";
  }
}

}  // namespace
}  // namespace ppsim

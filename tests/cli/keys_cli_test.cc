// One table of problem keys (problem_keys.h): the same mistake gets the same
// exit code whether it is a flag, a cost file, a scene, --set or --sweep; and
// `ppsim list --keys` and docs/keys.md are that table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/run_tool.h"
#include "ppsim/problem_keys.h"
#include "../generated_doc.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::ToolRun;

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/ppsim_keys_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const char* kRun = "[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n";

// A scene whose top level is `top`, and a good scene to --set and --sweep.
std::string Scene(const std::string& name, const std::string& top) { return Write(name, top + "\n" + kRun); }
const std::string kGood = Scene("good.toml", "P = 4\nM = 6");

struct Spelling {
  std::string how;   // what the user typed
  ToolRun run;
};

// Every spelling of one mistake exits with `code`, naming the key; one line each.
void ExpectSameCode(const std::vector<Spelling>& spellings, ErrorCode code, const std::string& key) {
  for (const Spelling& s : spellings) {
    EXPECT_EQ(s.run.exit_code, ExitCode(code)) << s.how << ": " << s.run.err;
    EXPECT_NE(s.run.err.find(key), std::string::npos) << s.how << ": " << s.run.err;
    EXPECT_EQ(s.run.err.find('\n'), s.run.err.size() - 1) << s.how << ": " << s.run.err;
    EXPECT_EQ(s.run.out, "") << s.how;
  }
}

TEST(KeysCli, PBelowItsRangeIsExit3EverySpelling) {
  ExpectSameCode({{"-P 0", RunPpsim("simulate -P 0")},
                  {"scene P = 0", RunPpsim("check " + Scene("p0.toml", "P = 0"))},
                  {"--set P=0", RunPpsim("check " + kGood + " --set P=0")},
                  {"--sweep P=0..2", RunPpsim("check " + kGood + " --sweep P=0..2")}},
                 ErrorCode::kInvalidValue, "P must be ≥ 1, got 0");
  // The one difference: where it was written.
  EXPECT_EQ(RunPpsim("simulate -P 0").err, "ppsim: -P must be ≥ 1, got 0\n");
  EXPECT_EQ(RunPpsim("check " + kGood + " --set P=0").err, "ppsim: --set P=0: P must be ≥ 1, got 0\n");
  EXPECT_EQ(RunPpsim("check " + kGood + " --sweep P=0..2").err, "ppsim: --sweep P=0..2: P must be ≥ 1, got 0\n");
}

TEST(KeysCli, POverItsLimitIsExit6EverySpelling) {
  ExpectSameCode({{"-P 5000", RunPpsim("simulate -P 5000")},
                  {"scene P = 5000", RunPpsim("check " + Scene("p5000.toml", "P = 5000"))},
                  {"--set P=5000", RunPpsim("check " + kGood + " --set P=5000")},
                  {"--sweep P=4000..5000", RunPpsim("check " + kGood + " --sweep P=4000..5000")}},
                 ErrorCode::kTooLarge, "5000 exceeds the limit 4096");
}

TEST(KeysCli, AZeroCostIsExit3EverySpelling) {
  ExpectSameCode({{"--cost F=0", RunPpsim("simulate --cost F=0")},
                  {"cost file F = 0", RunPpsim("simulate --cost-file " + Write("f0.toml", "F = 0\n"))},
                  {"scene costs = { F = 0 }", RunPpsim("check " + Scene("f0s.toml", "costs = { F = 0 }"))},
                  {"scene costs = \"F=0\"", RunPpsim("check " + Scene("f0t.toml", "costs = \"F=0\""))},
                  {"--set costs.F=0", RunPpsim("check " + kGood + " --set costs.F=0")},
                  {"--sweep costs.F=0..1", RunPpsim("check " + kGood + " --sweep costs.F=0..1")}},
                 ErrorCode::kInvalidValue, "costs.F must be ≥ 1, got 0");
}

TEST(KeysCli, AWordOutsideItsSetIsExit3EverySpelling) {
  ExpectSameCode({{"--hold always", RunPpsim("simulate --hold always")},
                  {"scene hold = \"always\"", RunPpsim("check " + Scene("h.toml", "hold = \"always\""))},
                  {"--set hold=always", RunPpsim("check " + kGood + " --set hold=always")}},
                 ErrorCode::kInvalidValue, "'always' is not one of held, resident");
}

// The render library names its field ("display_width", "fps"); the CLI says
// the flag the user typed, a scene its key and place. One exit code either way.
TEST(KeysCli, ARenderValueOutOfRangeIsExit3FlagOrScene) {
  const std::string out = "/tmp/ppsim_keys_" + std::to_string(::getpid()) + "_narrow.svg";
  const std::string narrow = Write("narrow.toml", "P = 4\nM = 6\n[render]\ndisplay_width = 8\n" + std::string(kRun));
  ExpectSameCode({{"--display-width 8", RunPpsim("render " + kGood + " -o " + out + " --display-width 8")},
                  {"[render] display_width = 8", RunPpsim("render " + narrow + " -o " + out)}},
                 ErrorCode::kInvalidValue, "display");  // --display-width, render.display_width
  EXPECT_EQ(RunPpsim("render " + kGood + " -o " + out + " --display-width 8").err,
            "ppsim: --display-width 8 is outside 16..16384\n");
  EXPECT_EQ(RunPpsim("render " + narrow + " -o " + out).err.find("--"), std::string::npos);  // the scene's key
  const std::string fast = Write("fast.toml", "P = 4\nM = 6\n[render]\nfps = 1000\n" + std::string(kRun));
  const std::string mp4 = "/tmp/ppsim_keys_" + std::to_string(::getpid()) + "_fast.mp4";
  ExpectSameCode({{"--fps 1000", RunPpsim("render " + kGood + " -o " + mp4 + " --fps 1000")},
                  {"[render] fps = 1000", RunPpsim("render " + fast + " -o " + mp4)}},
                 ErrorCode::kInvalidValue, "fps");
  EXPECT_EQ(RunPpsim("render " + kGood + " -o " + mp4 + " --fps 1000").err, "ppsim: --fps 1000 is outside 1..240\n");
  EXPECT_EQ(RunPpsim("render " + fast + " -o " + mp4).err, "ppsim: " + fast + ":4:7: render.fps 1000 is outside 1..240\n");
}

TEST(KeysCli, ListKeysPrintsTheTable) {
  const ToolRun r = RunPpsim("list --keys");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, KeyTableText());
  EXPECT_NE(r.out.find("costs.F"), std::string::npos);
}

constexpr const char* kBegin = "<!-- keys: generated from KeyTable() by tests/cli/keys_cli_test.cc -->\n";
constexpr const char* kEnd = "<!-- end of keys -->\n";

// PPSIM_UPDATE_DOCS=1 rewrites the table in place instead of failing
// (generated_doc.h).
TEST(KeysDoc, KeysPageIsTheTable) {
  testing::ExpectGeneratedSection(std::string(PPSIM_SOURCE_DIR) + "/docs/keys.md", kBegin, kEnd, KeyTableMarkdown());
}

}  // namespace
}  // namespace ppsim

// Scenes naming a measured run, through the shipped binary: [[run]] trace =
// "DIR/" (as = "measured" or "ideal") is the run `ppsim explain` reads and
// places, in ns ticks, so claims check a real step against its ideal
// (examples/measured_vs_ideal.toml); bad trace keys are one-line errors at
// their place.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;

const std::string kSource = PPSIM_SOURCE_DIR;

std::string Scene(const std::string& name, const std::string& text) {
  const std::string dir = "/tmp/ppsim_trace_scene_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(TraceSceneCli, ExampleClaimsHoldOnTheExplainedRuns) {
  auto check = RunPpsim("check " + kSource + "/examples/measured_vs_ideal.toml --json");
  ASSERT_EQ(check.exit_code, 0) << check.err;
  const json c = json::parse(check.out);
  ASSERT_TRUE(c["ok"].get<bool>());
  auto explain = RunPpsim("explain " + kSource + "/tests/data/traces/pub-1f1b-P2-M4-none --json");
  ASSERT_EQ(explain.exit_code, 0) << explain.err;
  const json e = json::parse(explain.out);
  // The scene's runs are explain's, to the nanosecond.
  const json& values = c["claims"][1]["values"];
  EXPECT_EQ(values["makespan(Measured)"].get<long long>(),
            std::llround(e["measured"]["makespan_us"].get<double>() * 1000));
  EXPECT_EQ(values["makespan(Ideal)"].get<long long>(), std::llround(e["ideal"]["makespan_us"].get<double>() * 1000));
  EXPECT_EQ(values["makespan(Measured)"], 25978698);
}

TEST(TraceSceneCli, AFalseClaimAboutTheTraceIsFound) {
  const std::string traces = kSource + "/tests/data/traces/pub-1f1b-P4-M4-straggler/";
  const std::string scene = Scene("false.toml", "[[run]]\nname = \"Measured\"\ntrace = \"" + traces +
                                                    "\"\n[[run]]\nname = \"Ideal\"\ntrace = \"" + traces +
                                                    "\"\nas = \"ideal\"\n[[claim]]\n"
                                                    "check = \"makespan(Measured) > makespan(Ideal)\"\n");
  auto run = RunPpsim("check " + scene);
  EXPECT_EQ(run.exit_code, 11) << run.err;  // without expected costs the ideal keeps rank 3's medians: 31384246 ns
  EXPECT_NE(run.out.find("makespan(Ideal) = 31384246"), std::string::npos) << run.out;
}

TEST(TraceSceneCli, ExpectedCostsJudgeTheIdealAsExplainDoes) {
  // expect = the true costs (ns ticks): rank 3 is found a straggler and left
  // out of the ideal, which is then explain --expect's to the nanosecond and
  // shorter than the ideal at the stages' medians (31384246 ns, above).
  const std::string traces = kSource + "/tests/data/traces/pub-1f1b-P4-M4-straggler/";
  const json truth = json::parse(testing::Slurp(traces + "truth.json"));
  std::string f, bw;
  for (const auto& c : truth["costs_us"]) {
    f += (f.empty() ? "" : ", ") + std::to_string(std::llround(c["F"].get<double>() * 1000));
    bw += (bw.empty() ? "" : ", ") + std::to_string(std::llround(c["B"].get<double>() * 1000));
  }
  const std::string costs = Scene("true_costs.toml", "F = [" + f + "]\nBW = [" + bw + "]\n");
  const std::string ideal = "trace = \"" + traces + "\"\nas = \"ideal\"\n";
  const std::string scene =
      Scene("expected.toml", "[[run]]\nname = \"Median\"\n" + ideal + "[[run]]\nname = \"Expected\"\n" + ideal +
                                 "expect = \"true_costs.toml\"\n[[run]]\nname = \"Equal\"\n" + ideal +
                                 "equal_stages = true\n[[claim]]\ncheck = \"makespan(Expected) < makespan(Median)\"\n");
  auto check = RunPpsim("check " + scene + " --json");
  ASSERT_EQ(check.exit_code, 0) << check.err << check.out;
  const json values = json::parse(check.out)["claims"][0]["values"];
  EXPECT_EQ(values["makespan(Median)"], 31384246);
  auto explain = RunPpsim("explain " + traces + " --json --expect " + costs);
  ASSERT_EQ(explain.exit_code, 0) << explain.err;
  const json e = json::parse(explain.out);
  EXPECT_EQ(e["findings"][0]["kind"], "straggler");
  EXPECT_EQ(values["makespan(Expected)"].get<long long>(), std::llround(e["ideal"]["makespan_us"].get<double>() * 1000));
  EXPECT_EQ(values["makespan(Expected)"], 28249474);
}

TEST(TraceSceneCli, BadExpectationKeysAreErrorsAtTheirPlace) {
  const std::string traces = kSource + "/tests/data/traces/pub-1f1b-P4-M4-straggler/";
  const std::string run = "[[run]]\nname = \"I\"\ntrace = \"" + traces + "\"\nas = \"ideal\"\n";
  const struct {
    std::string file, text;
    int exit_code;
    std::string message;
  } cases[] = {
      {"nofile.toml", run + "expect = \"nope.toml\"\n", 12, "nofile.toml:1: run I: trace: expect: cost_file: cannot read"},
      {"notbool.toml", run + "equal_stages = 1\n", 3, "notbool.toml:5:16: equal_stages must be true or false"},
      {"twice.toml", run + "expect = \"c.toml\"\nequal_stages = true\n", 3,
       "twice.toml:5:10: expect or equal_stages, not both (as ppsim explain)"},
      {"notrace.toml", "[[run]]\nname = \"I\"\nschedule = \"1f1b\"\nequal_stages = true\n", 3,
       "notrace.toml:4:16: expect and equal_stages judge a trace's run: give trace = \"DIR/\" too"},
  };
  for (const auto& c : cases) {
    auto r = RunPpsim("check " + Scene(c.file, c.text));
    EXPECT_EQ(r.exit_code, c.exit_code) << c.file << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << c.file;
  }
}

TEST(TraceSceneCli, BadTraceKeysAreErrorsAtTheirPlace) {
  auto as = RunPpsim("check " + Scene("as.toml", "[[run]]\nname = \"A\"\ntrace = \"x/\"\nas = \"replay\"\n"));
  EXPECT_EQ(as.exit_code, 3);
  EXPECT_NE(as.err.find("as.toml:4:6: as = \"replay\": a trace's run is \"measured\" or \"ideal\""), std::string::npos)
      << as.err;
  auto both = RunPpsim("check " + Scene("both.toml", "[[run]]\nname = \"A\"\ntrace = \"x/\"\nschedule = \"1f1b\"\n"));
  EXPECT_EQ(both.exit_code, 3);
  EXPECT_NE(both.err.find("both.toml:1:1: [[run]] \"A\": a schedule or a trace, not both"), std::string::npos) << both.err;
  auto mixed = RunPpsim("check " + Scene("mixed.toml", "[[run]]\nname = \"A\"\ntrace = \"x/\"\n[[run]]\nname = "
                                                       "\"B\"\nschedule = \"1f1b\"\n"));
  EXPECT_EQ(mixed.exit_code, 3);
  EXPECT_NE(mixed.err.find("mixed.toml:4:1:"), std::string::npos) << mixed.err;
  auto missing = RunPpsim("check " + Scene("missing.toml", "[[run]]\nname = \"A\"\ntrace = \"nope/\"\n"));
  EXPECT_EQ(missing.exit_code, 12);
  EXPECT_NE(missing.err.find("missing.toml:1: run A: trace: "), std::string::npos) << missing.err;
  EXPECT_EQ(missing.out, "");
}

}  // namespace
}  // namespace ppsim

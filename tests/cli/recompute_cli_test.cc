// Recompute as an op through the shipped binary: `--recompute full` puts an
// R before every B in --json and the text chart, compare --with sets it
// beside the plain run, and bad recompute input is one line with its exit
// code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

// A cost file with 1000 activation bytes a stage-microbatch.
std::string BytesFile(const std::string& bytes) {
  const std::string path = ::testing::TempDir() + "recompute_bytes_" + std::to_string(bytes.size()) + ".toml";
  std::ofstream(path) << "[memory]\nactivation_bytes = " << bytes << "\n";
  return path;
}

TEST(RecomputeCli, JsonCarriesROpsBeforeEachB) {
  auto run = RunPpsim("simulate -s 1f1b -P 2 -M 3 --cost F=1,BW=2 --recompute full --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["recompute"], "full");
  EXPECT_EQ(j["recompute_at"], "before_b");
  EXPECT_EQ(j["recompute_time"], 6);
  EXPECT_EQ(j["recompute_time_per_device"], nlohmann::json::parse("[3, 3]"));
  std::string rank0;
  for (const auto& op : j["ops"])
    if (op["device"] == 0) rank0 += std::string(op["kind"]) + std::to_string(int(op["microbatch"])) + " ";
  EXPECT_EQ(rank0, "F0 F1 R0 B0 F2 R1 B1 R2 B2 ");
  // Without recompute nothing of it is written.
  auto plain = RunPpsim("simulate -s 1f1b -P 2 -M 3 --cost F=1,BW=2 --json");
  EXPECT_EQ(plain.out.find("recompute"), std::string::npos);
  EXPECT_EQ(plain.out.find("\"R\""), std::string::npos);
}

TEST(RecomputeCli, TextChartShowsRAndSaysWhatItIs) {
  auto run = RunPpsim("simulate -s 1f1b -P 2 -M 3 --cost F=1,BW=2 --recompute full --format text --width 100");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("R recompute"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("d0    F0 F1 .  .  .  R0 B0 -- F2 R1 B1 -- .  R2 B2 --"), std::string::npos) << run.out;
}

TEST(RecomputeCli, CompareWithRecomputeShowsTimePaidAndMemorySaved) {
  const std::string bytes = BytesFile("1000");
  auto run = RunPpsim("compare -s 1f1b -P 4 -M 8 --cost F=1,BW=2 --cost-file " + bytes +
                      " --recompute-inputs 1/10 --with recompute=full --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["runs"].size(), 2u);
  const nlohmann::json &off = j["runs"][0], &on = j["runs"][1];
  EXPECT_EQ(on["with"], "recompute=full");
  EXPECT_FALSE(off.contains("with"));
  EXPECT_EQ(off["makespan"], 33);
  EXPECT_EQ(on["makespan"], 44);
  EXPECT_EQ(on["recompute_time"], 32);
  EXPECT_EQ(on["peak_activations_per_device"], nlohmann::json::parse("[1, 1, 1, 1]"));
  EXPECT_EQ(off["peak_activations_per_device"], nlohmann::json::parse("[4, 3, 2, 0]"));
  auto text = RunPpsim("compare -s 1f1b -P 4 -M 8 --cost F=1,BW=2 --with recompute=full");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("makespans differ: 1f1b=33 1f1b recompute=full=44"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("recompute_time"), std::string::npos);
}

TEST(RecomputeCli, PeakBytesPerDevice) {
  const std::string bytes = BytesFile("1000");
  auto off = RunPpsim("simulate -s 1f1b -P 4 -M 8 --cost F=1,BW=2 --cost-file " + bytes + " --json");
  auto on = RunPpsim("simulate -s 1f1b -P 4 -M 8 --cost F=1,BW=2 --cost-file " + bytes +
                     " --recompute full --recompute-inputs 0.1 --json");
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_EQ(nlohmann::json::parse(off.out)["peak_bytes_per_device"], nlohmann::json::parse("[4000, 3000, 2000, 0]"));
  EXPECT_EQ(nlohmann::json::parse(on.out)["peak_bytes_per_device"], nlohmann::json::parse("[1300, 1200, 1100, 1000]"));
  EXPECT_EQ(nlohmann::json::parse(on.out)["recompute_inputs"], "1/10");
}

TEST(RecomputeCli, BadInputIsOneLineWithItsCode) {
  auto frac = RunPpsim("simulate -s 1f1b --recompute full --recompute-inputs 1.5");
  EXPECT_EQ(frac.exit_code, 3);
  EXPECT_EQ(frac.err, "ppsim: --recompute-inputs must be in [0, 1], got 1.5\n");
  EXPECT_EQ(frac.out, "");
  auto word = RunPpsim("simulate -s 1f1b --recompute partial");
  EXPECT_EQ(word.exit_code, 3);
  EXPECT_EQ(word.err, "ppsim: --recompute: 'partial' is not one of off, full, selective\n");
  auto none = RunPpsim("simulate -s 1f1b -P 4 --recompute full --cost-file " + BytesFile("[1000, 0, 1000, 1000]"));
  EXPECT_EQ(none.exit_code, 3);
  EXPECT_EQ(none.err,
            "ppsim: --recompute: stage 1 holds no activations (memory.activation_bytes[1] = 0): nothing to "
            "recompute\n");
  auto csv = RunPpsim("simulate -s 1f1b --recompute full --export pytorch-csv");
  EXPECT_EQ(csv.exit_code, 5);
  EXPECT_EQ(csv.out, "");
  EXPECT_EQ(csv.err,
            "ppsim: --export: pytorch-csv has no recompute action to carry R ops; export text, or drop recompute\n");
  auto pair = RunPpsim("simulate -s dualpipev -P 4 -M 8 --recompute full");
  EXPECT_EQ(pair.exit_code, 8);
  auto search = RunPpsim("search -P 4 -M 8 --recompute full --recompute-at early --max-activations 4");
  EXPECT_EQ(search.exit_code, 5);
}

// What recompute does not model yet is refused, one line, exit 5 (a
// precondition), never run with R silently dropped (issue 28).
TEST(RecomputeCli, CombinationsItDoesNotModelAreRefused) {
  const std::string combine =
      "ppsim: --recompute: recompute does not combine with sequence slices or per-microbatch costs yet; drop one\n";
  for (const char* args : {"-s seq1f1b --slices 2", "-s 1f1b -M 2 --microbatch-costs 2:1",
                           "-s 1f1b -M 2 --microbatch-lengths uniform --length-range 1:4"}) {
    auto run = RunPpsim(std::string("simulate -P 2 --recompute full ") + args);
    EXPECT_EQ(run.exit_code, 5) << args;
    EXPECT_EQ(run.err, combine) << args;
    EXPECT_EQ(run.out, "") << args;
  }
  auto comms = RunPpsim("simulate -s 1f1b -P 2 --recompute full --comms pytorch");
  EXPECT_EQ(comms.exit_code, 5);
  EXPECT_EQ(comms.err,
            "ppsim: --recompute: communication as ops does not model recompute yet (docs/comms.md); drop one\n");
  EXPECT_EQ(comms.out, "");
  auto search = RunPpsim("search -P 4 -M 8 --recompute full --recompute-at early --max-activations 4");
  EXPECT_EQ(search.exit_code, 5);
  EXPECT_EQ(search.err,
            "ppsim: --recompute-at: search puts each R right before its B, after B's gradient (before_b); early "
            "is not searched yet\n");
  EXPECT_EQ(search.out, "");
}

}  // namespace
}  // namespace ppsim

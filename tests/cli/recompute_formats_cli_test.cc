// Recompute's R ops in the schedule formats, through the shipped binary: the
// text format writes R and the run's recompute settings and reads them back
// as the same run; `validate` checks R's dependencies (after its F, before
// its B, and with recompute_at before_b after B's gradient) on a --json
// timeline; the Chrome trace names R; PyTorch's CSV refuses R.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using ::testing::HasSubstr;
using testing::RunPpsim;
using testing::TempFile;

const char* const kRun = "simulate -s 1f1b -P 4 -M 8 --cost F=1,BW=2 --recompute full";

// The ops of a --json output (the schedule's name differs between a run and its file).
std::string Ops(const std::string& json) { return nlohmann::json::parse(json)["ops"].dump(); }

TEST(RecomputeFormatsCli, TextWritesRAndItsSettings) {
  auto text = RunPpsim("simulate -s 1f1b -P 2 -M 2 --recompute full --export text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out,
            "# 1f1b: P=2 M=2 v=1 placement=loop recompute=full recompute_at=before_b recompute_inputs=0\n"
            "F0 F1 R0 B0 R1 B1\n"
            "F0 R0 B0 F1 R1 B1\n");
}

TEST(RecomputeFormatsCli, TextReadsBackAsTheSameRun) {
  // Early R (Mario-like) and a tenth of the bytes held: the header carries
  // both, so the file alone gives makespan 41, not the before_b run's 44.
  const std::string early = std::string(kRun) + " --recompute-at early --recompute-inputs 1/10";
  auto text = RunPpsim(early + " --export text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("recompute=full recompute_at=early recompute_inputs=1/10\n"));
  const TempFile file("recompute_early.txt", text.out);
  auto again = RunPpsim("simulate --schedule-file " + file.path() + " --cost F=1,BW=2 --json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto direct = RunPpsim(early + " --json");
  EXPECT_EQ(Ops(again.out), Ops(direct.out));
  const nlohmann::json j = nlohmann::json::parse(again.out);
  EXPECT_EQ(j["makespan"], 41);
  EXPECT_EQ(j["recompute_at"], "early");
  EXPECT_EQ(j["recompute_inputs"], "1/10");
  EXPECT_EQ(j["recompute_time"], 32);
  // --recompute given with the file: its own settings apply (R waits on B's gradient).
  auto flags = RunPpsim("simulate --schedule-file " + file.path() + " --cost F=1,BW=2 --recompute full --json");
  ASSERT_EQ(flags.exit_code, 0) << flags.err;
  EXPECT_EQ(nlohmann::json::parse(flags.out)["makespan"], 44);
  // A hand-written file without a header: R ops alone mean full recompute before B.
  const TempFile bare("recompute_bare.txt", "F0 F1 R0 B0 R1 B1\nF0 R0 B0 F1 R1 B1\n");
  auto plain = RunPpsim("simulate --schedule-file " + bare.path() + " --json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(Ops(plain.out), Ops(RunPpsim("simulate -s 1f1b -P 2 -M 2 --recompute full --json").out));
}

TEST(RecomputeFormatsCli, BadRInTextIsOneLineWithItsCode) {
  const TempFile missing("r_missing.txt", "F0 F1 R0 B0 B1\nF0 R0 B0 F1 R1 B1\n");
  auto a = RunPpsim("simulate --schedule-file " + missing.path());
  EXPECT_EQ(a.exit_code, 8);
  EXPECT_EQ(a.err, "ppsim: " + missing.path() + ": R1@s0 is missing (expected on device 0)\n");
  const TempFile twice("r_twice.txt", "F0 R0 R0 B0\n");
  auto b = RunPpsim("simulate --schedule-file " + twice.path());
  EXPECT_EQ(b.exit_code, 8);
  EXPECT_EQ(b.err, "ppsim: " + twice.path() + ":1:7: R0@s0 appears twice (first at 1:4)\n");
  const TempFile pair("r_pair.txt", "(F0;R0) B0\n");
  auto c = RunPpsim("simulate --schedule-file " + pair.path());
  EXPECT_EQ(c.exit_code, 7);
  EXPECT_EQ(c.err, "ppsim: " + pair.path() + ":1:1: an overlapped pair needs one F and one B, got F0@s0 and R0@s0\n");
  const TempFile word("r_word.txt", "# x: recompute=partial\nF0 R0 B0\n");
  auto d = RunPpsim("simulate --schedule-file " + word.path());
  EXPECT_EQ(d.exit_code, 3);
  EXPECT_EQ(d.err, "ppsim: " + word.path() + ":1:6: recompute: 'partial' is not one of off, full, selective\n");
  // R before its own F can never run: a deadlock naming the wait.
  const TempFile early("r_early.txt", "R0 F0 B0\n");
  auto e = RunPpsim("simulate --schedule-file " + early.path());
  EXPECT_EQ(e.exit_code, 9);
  EXPECT_THAT(e.err, HasSubstr("deadlock: device 0 waits on F0@s0 before R0@s0"));
}

TEST(RecomputeFormatsCli, ValidateChecksRAsPlacementDoes) {
  for (const char* at : {"before_b", "early"}) {
    const std::string json = RunPpsim(std::string(kRun) + " --recompute-at " + at + " --json").out;
    const TempFile file(std::string("recompute_") + at + ".json", json);
    auto ok = RunPpsim("validate " + file.path());
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_EQ(ok.out, std::string("ok: 96 ops, legal and tight, makespan ") +
                          (at == std::string("early") ? "41" : "44") + "\n");
  }
  // The early run read as before_b: R0@s0 ran before the gradient of B0 reached it.
  nlohmann::json j = nlohmann::json::parse(RunPpsim(std::string(kRun) + " --recompute-at early --json").out);
  j["recompute_at"] = "before_b";
  const TempFile early_as_b("recompute_mislabelled.json", j.dump());
  auto bad = RunPpsim("validate " + early_as_b.path());
  EXPECT_EQ(bad.exit_code, 10);
  EXPECT_THAT(bad.err, HasSubstr(": 24 violation(s); first: R0@s0 starts at 4 but B0@s1 ends at 11\n"));
  // B before its R: B0@s3 waits on R0@s3.
  j = nlohmann::json::parse(RunPpsim(std::string(kRun) + " --json").out);
  for (auto& op : j["ops"])
    if (op["kind"] == "R" && op["microbatch"] == 0 && op["stage"] == 3) op["start"] = 5, op["end"] = 6;
  const TempFile late_r("recompute_late.json", j.dump());
  auto late = RunPpsim("validate " + late_r.path());
  EXPECT_EQ(late.exit_code, 10);
  EXPECT_THAT(late.err, HasSubstr("dependency: B0@s3 starts at 5 but R0@s3 ends at 6\n"));
  // A missing R is named.
  j = nlohmann::json::parse(RunPpsim(std::string(kRun) + " --json").out);
  nlohmann::json kept = nlohmann::json::array();
  for (auto& op : j["ops"])
    if (!(op["kind"] == "R" && op["microbatch"] == 3 && op["stage"] == 1)) kept.push_back(op);
  j["ops"] = kept;
  const TempFile no_r("recompute_no_r.json", j.dump());
  auto missing = RunPpsim("validate " + no_r.path());
  EXPECT_EQ(missing.exit_code, 10);
  EXPECT_THAT(missing.err, HasSubstr("missing: R3@s1 is missing\n"));
}

TEST(RecomputeFormatsCli, TraceNamesRAndPytorchCsvRefusesIt) {
  auto trace = RunPpsim("simulate -s 1f1b -P 2 -M 2 --recompute full --format trace");
  ASSERT_EQ(trace.exit_code, 0) << trace.err;
  EXPECT_THAT(trace.out, HasSubstr("\"name\":\"R0@s0\",\"pid\":0,\"tid\":0,\"cat\":\"R\""));
  for (const char* format : {"pytorch-csv", "pytorch-comms-csv"}) {
    auto csv = RunPpsim(std::string("simulate -s 1f1b -P 2 -M 2 --recompute full --export ") + format);
    EXPECT_EQ(csv.exit_code, 5) << format;
    EXPECT_EQ(csv.out, "");
    EXPECT_EQ(csv.err, std::string("ppsim: --export: ") + format +
                           " has no recompute action to carry R ops; export text, or drop recompute\n");
  }
}

}  // namespace
}  // namespace ppsim

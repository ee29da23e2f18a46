// Sequence slices in the schedule formats, through the shipped binary: the
// text format writes each op's slice and reads it back as the same run;
// `validate` checks a sliced --json timeline's slice dependencies; the
// Chrome trace names slices; PyTorch's CSVs, which have no slices, refuse a
// sliced run instead of writing slice units as microbatches.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using ::testing::HasSubstr;
using testing::RunPpsim;

using testing::TempFile;

const char* const kRun = "simulate -s seq1f1b -P 2 -M 4 --slices 2 --cost F=2,B=2,W=2";

TEST(SlicesFormatsCli, TextExportReadsBackAsTheSameRun) {
  auto text = RunPpsim(std::string(kRun) + " --export text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out,
            "# seq1f1b: P=2 M=4 v=1 placement=loop slices=2\n"
            "F0.0 F0.1 F1.0 B0.1 F1.1 B0.0 F2.0 B1.1 F2.1 B1.0 F3.0 B2.1 F3.1 B2.0 B3.1 B3.0\n"
            "F0.0 F0.1 B0.1 F1.0 B0.0 F1.1 B1.1 F2.0 B1.0 F2.1 B2.1 F3.0 B2.0 F3.1 B3.1 B3.0\n");
  const TempFile file("order.txt", text.out);
  auto direct = RunPpsim(std::string(kRun) + " --json");
  auto again = RunPpsim("simulate --schedule-file " + file.path() + " --cost F=2,B=2,W=2 --json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  // The same ops at the same ticks (the schedule's name differs: the file's path).
  const auto ops = [](const std::string& json) {
    const size_t at = json.find("\"ops\":");
    return json.substr(at, json.find("}],", at) - at);
  };
  EXPECT_EQ(ops(again.out), ops(direct.out));
  EXPECT_THAT(again.out, HasSubstr("\"makespan\":27"));
  EXPECT_THAT(again.out, HasSubstr("\"slices\":2"));
  auto rewritten = RunPpsim("simulate --schedule-file " + file.path() + " --export text");
  EXPECT_EQ(rewritten.out.substr(rewritten.out.find('\n')), text.out.substr(text.out.find('\n')));
}

TEST(SlicesFormatsCli, AnOrderBreakingTheSliceDependenciesDeadlocks) {
  // Device 1 runs B0.0 before B0.1: slice 0's backward waits on slice 1's.
  const TempFile file("bad_order.txt", "F0.0 F0.1 F1.0 B0.1 F1.1 B0.0 B1.1 B1.0\n"
                                       "F0.0 F0.1 B0.0 F1.0 B0.1 F1.1 B1.1 B1.0\n");
  auto run = RunPpsim("simulate --schedule-file " + file.path());
  EXPECT_EQ(run.exit_code, 9);
  EXPECT_EQ(run.err, "ppsim: " + file.path() + ": deadlock: device 1 waits on B0.1@s1 before B0.0@s1\n");
}

TEST(SlicesFormatsCli, BadSlicedFilesAreOneLineWithTheirCodes) {
  const TempFile mixed("mixed.txt", "F0.0 F0.1 F1 B0.1\n");
  auto a = RunPpsim("simulate --schedule-file " + mixed.path());
  EXPECT_EQ(a.exit_code, 7);
  EXPECT_EQ(a.err, "ppsim: " + mixed.path() +
                       ":1:11: F1 names no slice, but F0.0 at 1:1 does (F3.1 is slice 1 of microbatch 3): give "
                       "every op its slice\n");
  const TempFile short_of("short.txt", "F0.0 F0.1 F1.0 B0.1 B0.0 B1.0\n");
  auto b = RunPpsim("simulate --schedule-file " + short_of.path());
  EXPECT_EQ(b.exit_code, 8);
  EXPECT_EQ(b.err, "ppsim: " + short_of.path() + ": microbatch 1 has 1 of 2 slices\n");
  const TempFile good("good.txt", "F0.0 F0.1 B0.1 B0.0\n");
  auto c = RunPpsim("simulate --schedule-file " + good.path() + " --slices 3");
  EXPECT_EQ(c.exit_code, 3);
  EXPECT_EQ(c.err, "ppsim: --slices: 3 disagrees with " + good.path() + " (2 slices per microbatch); drop it\n");
}

// kRun's --json with `edit` applied to each op.
template <typename Edit>
std::string EditedOps(Edit edit) {
  nlohmann::json j = nlohmann::json::parse(RunPpsim(std::string(kRun) + " --json").out);
  nlohmann::json kept = nlohmann::json::array();
  for (nlohmann::json& op : j["ops"])
    if (edit(op)) kept.push_back(op);
  j["ops"] = kept;
  return j.dump();
}

TEST(SlicesFormatsCli, ValidateChecksTheSliceDependencies) {
  const TempFile run("sliced.json", EditedOps([](nlohmann::json&) { return true; }));
  auto ok = RunPpsim("validate " + run.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "ok: 32 ops, legal and tight, makespan 27\n");
  // Device 0 runs microbatch 0's forward slices the other way round: slice 1
  // before the K/V of slice 0 exist.
  const TempFile forward("sliced_f.json", EditedOps([](nlohmann::json& op) {
    if (op["device"] == 0 && op["kind"] == "F" && op["microbatch"] == 0) op["slice"] = 1 - op["slice"].get<int>();
    return true;
  }));
  auto f = RunPpsim("validate " + forward.path());
  EXPECT_EQ(f.exit_code, 10);
  EXPECT_EQ(f.err, "dependency: F0.1@s0 starts at 0 but F0.0@s0 ends at 2\n"
                   "dependency: F0.0@s1 starts at 1 but F0.0@s0 ends at 2\n"
                   "ppsim: " + forward.path() + ": 2 violation(s); first: F0.1@s0 starts at 0 but F0.0@s0 ends at 2\n");
  // Device 1 runs B2.0 before B2.1: the backward slices run K-1 .. 0.
  const TempFile backward("sliced_b.json", EditedOps([](nlohmann::json& op) {
    if (op["device"] == 1 && op["kind"] == "B" && op["microbatch"] == 2) op["slice"] = 1 - op["slice"].get<int>();
    return true;
  }));
  auto b = RunPpsim("validate " + backward.path());
  EXPECT_EQ(b.exit_code, 10);
  EXPECT_THAT(b.err, HasSubstr("first: B2.0@s1 starts at 15 but B2.1@s1 ends at 20\n"));
  const TempFile short_of("sliced_missing.json", EditedOps([](nlohmann::json& op) {
    return !(op["kind"] == "B" && op["microbatch"] == 3 && op["slice"] == 1 && op["stage"] == 0);
  }));
  auto m = RunPpsim("validate " + short_of.path());
  EXPECT_EQ(m.exit_code, 10);
  EXPECT_THAT(m.err, HasSubstr("first: B3.1@s0 is missing\n"));
  const TempFile beyond("sliced_beyond.json", EditedOps([](nlohmann::json& op) {
    if (op["kind"] == "W" || (op["microbatch"] == 0 && op["slice"] == 1 && op["stage"] == 0 && op["kind"] == "F"))
      op["slice"] = 2;
    return true;
  }));
  auto u = RunPpsim("validate " + beyond.path());
  EXPECT_EQ(u.exit_code, 10);
  EXPECT_THAT(u.err, HasSubstr("unknown: F0.2@s0 on device 0 is outside P=2, S=2, M=4, slices=2\n"));
}

TEST(SlicesFormatsCli, CriticalPathNamesSlices) {
  auto run = RunPpsim("simulate -s seq1f1b -P 2 -M 2 --slices 2 --cost F=2,BW=2 --critical-path");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("critical path (10 ops, tick 0 to 10): F0.0@s0(d0 0-1) -> F0.1@s0(d0 1-2) -> "
                                 "F0.1@s1(d1 2-3) -> B0.1@s1(d1 3-4) -> B0.1@s0(d0 4-5) -> F1.1@s0(d0 5-6) -> "
                                 "F1.1@s1(d1 6-7) -> B1.1@s1(d1 7-8) -> B1.0@s1(d1 8-9) -> B1.0@s0(d0 9-10)\n"));
}

TEST(SlicesFormatsCli, PytorchCsvRefusesAndTheTraceNamesSlices) {
  for (const char* format : {"pytorch-csv", "pytorch-comms-csv"}) {
    auto run = RunPpsim(std::string(kRun) + " --export " + format);
    EXPECT_EQ(run.exit_code, 5) << format;
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err, std::string("ppsim: --export ") + format +
                           ": PyTorch's actions have no sequence slices (this run has 2 per microbatch); use "
                           "--export text or --json\n");
  }
  auto trace = RunPpsim(std::string(kRun) + " --format trace");
  ASSERT_EQ(trace.exit_code, 0) << trace.err;
  EXPECT_THAT(trace.out, HasSubstr("\"name\":\"F3.1@s1\""));
  EXPECT_THAT(trace.out, HasSubstr("\"args\":{\"microbatch\":3,\"slice\":1,\"stage\":1,"));
  EXPECT_THAT(trace.out, HasSubstr("\"name\":\"F3.1@s0 -> F3.1@s1\""));
}

}  // namespace
}  // namespace ppsim

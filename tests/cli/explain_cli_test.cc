// `ppsim explain` end to end on the two public trace cases (tests/data/
// traces, each with its truth.json): the orders, the fitted costs, the three
// runs' makespans and the first finding against the truth; then bad input.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;
using testing::Slurp;

const std::string kTraces = std::string(PPSIM_TEST_DATA_DIR) + "/traces/";

json Truth(const std::string& name) { return json::parse(Slurp(kTraces + name + "/truth.json")); }

std::string TempDir(const std::string& name) {
  const std::string dir = "/tmp/ppsim_explain_" + std::to_string(::getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The true costs as a cost file in ns ticks (1F1B runs a full backward: BW).
std::string ExpectFile(const json& truth) {
  const std::string path = TempDir("expect") + "/true_costs.toml";
  std::string f, bw;
  for (const auto& c : truth["costs_us"]) {
    f += (f.empty() ? "" : ", ") + std::to_string(std::llround(c["F"].get<double>() * 1000));
    bw += (bw.empty() ? "" : ", ") + std::to_string(std::llround(c["B"].get<double>() * 1000));
  }
  std::ofstream(path) << "F = [" << f << "]\nBW = [" << bw << "]\n";
  return path;
}

void ExpectNear(double got, double want, double rel, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), rel * want) << what << ": got " << got << ", truth " << want;
}

void CheckAgainstTruth(const std::string& name, const std::string& extra, bool check_ideal) {
  const json truth = Truth(name);
  auto run = RunPpsim("explain " + kTraces + name + " --json" + extra);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["orders"], truth["orders"]);
  EXPECT_EQ(j["stage_to_rank"], truth["stage_to_rank"]);
  EXPECT_EQ(j["P"], truth["P"]);
  EXPECT_EQ(j["M"], truth["M"]);
  EXPECT_EQ(j["schedule"], truth["schedule_key"]);
  // Costs within 3 % of the true ones, times the straggler's factor on its rank.
  const json& fault = truth["fault"];
  for (size_t s = 0; s < truth["costs_us"].size(); ++s) {
    const json& want = truth["costs_us"][s];
    const double factor =
        fault["kind"] == "straggler" && fault["rank"] == want["rank"] ? fault["factor"].get<double>() : 1.0;
    for (const char* kind : {"F", "B"})
      ExpectNear(j["costs_us"][s][kind].get<double>(), want[kind].get<double>() * factor, 0.03,
                 name + " stage " + std::to_string(s) + " " + kind);
  }
  ExpectNear(j["measured"]["makespan_us"], truth["measured"]["makespan_us"], 0.001, name + " measured");
  ExpectNear(j["replay"]["makespan_us"], truth["replay"]["makespan_us"], 0.005, name + " replay");
  if (check_ideal) ExpectNear(j["ideal"]["makespan_us"], truth["ideal"]["makespan_us"], 0.02, name + " ideal");
  for (const char* key : {"hops", "skew_us", "findings"}) EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["measured"]["busy_us"].size(), truth["measured"]["busy_us"].size());
}

TEST(ExplainCli, NoFaultCaseMatchesItsTruth) { CheckAgainstTruth("pub-1f1b-P2-M4-none", "", true); }

TEST(ExplainCli, StragglerCaseMatchesItsTruth) { CheckAgainstTruth("pub-1f1b-P4-M4-straggler", "", false); }

TEST(ExplainCli, StragglerIsTheFirstFindingGivenTheTrueCosts) {
  const std::string name = "pub-1f1b-P4-M4-straggler";
  const json truth = Truth(name);
  CheckAgainstTruth(name, " --expect " + ExpectFile(truth), true);
  auto run = RunPpsim("explain " + kTraces + name + " --json --expect " + ExpectFile(truth));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  ASSERT_FALSE(j["findings"].empty());
  EXPECT_EQ(j["findings"][0]["kind"], "straggler");
  EXPECT_EQ(j["findings"][0]["rank"], 3);
  // Its cost: the measured step without the fault ends about fault.cost_us sooner.
  ExpectNear(j["findings"][0]["lost_us"], truth["fault"]["cost_us"], 0.10, "straggler's lost_us");
}

TEST(ExplainCli, NoFaultCaseFindsNoStraggler) {
  const std::string name = "pub-1f1b-P2-M4-none";
  auto run = RunPpsim("explain " + kTraces + name + " --json --expect " + ExpectFile(Truth(name)));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json report = json::parse(run.out);  // kept: a range over a temporary's member would dangle
  for (const auto& f : report["findings"]) EXPECT_NE(f["kind"], "straggler") << f.dump();
}

TEST(ExplainCli, TextReportNamesTheScheduleAndTheRuns) {
  auto run = RunPpsim("explain " + kTraces + "pub-1f1b-P2-M4-none/rank0.json " + kTraces +
                      "pub-1f1b-P2-M4-none/rank1.json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("schedule 1f1b  P 2  M 4  v 1"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("rank 0: 0F0 0F1 0B0 0F2 0B1 0F3 0B2 0B3"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("measured  "), std::string::npos) << run.out;
}

TEST(ExplainCli, GzipTracesReadAsPlainOnes) {
  const std::string dir = TempDir("gz");
  for (const char* r : {"rank0", "rank1"})
    ASSERT_EQ(std::system(("gzip -c " + kTraces + "pub-1f1b-P2-M4-none/" + r + ".json > " + dir + "/" + r +
                           ".json.gz").c_str()),
              0);
  auto gz = RunPpsim("explain " + dir + " --json");
  auto plain = RunPpsim("explain " + kTraces + "pub-1f1b-P2-M4-none --json");
  ASSERT_EQ(gz.exit_code, 0) << gz.err;
  const json a = json::parse(gz.out), b = json::parse(plain.out);
  EXPECT_EQ(a["orders"], b["orders"]);
  EXPECT_EQ(a["measured"], b["measured"]);
}

TEST(ExplainCli, ExportedCostsAreACostFileSimulateReads) {
  const std::string path = TempDir("export") + "/costs.toml";
  auto run = RunPpsim("explain " + kTraces + "pub-1f1b-P2-M4-none --export-costs " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto sim = RunPpsim("simulate --schedule 1f1b -P 2 -M 4 --cost-per chunk --cost-file " + path + " --json");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  // The ideal of the measured orders (1F1B) is simulate's 1F1B on the fitted costs, in ns ticks.
  const json ideal = json::parse(RunPpsim("explain " + kTraces + "pub-1f1b-P2-M4-none --json").out)["ideal"];
  EXPECT_EQ(json::parse(sim.out)["makespan"].get<long long>(),
            std::llround(ideal["makespan_us"].get<double>() * 1000));
}

// A trace of parts (DeepSeek's layout: no PP: ranges, "attn(F)" ranges,
// absolute integer µs): each part's GPU time per stream, and the pair.
TEST(ExplainCli, PartsOfAnOverlappedPair) {
  const std::string dir = TempDir("parts");
  auto x = [](const char* cat, const char* name, int tid, int ts, int dur, const std::string& args) {
    return std::string("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"" + name + "\", \"pid\": " +
           (std::string(cat) == "kernel" ? "0" : "9") + ", \"tid\": " + std::to_string(tid) +
           ", \"ts\": " + std::to_string(1740461679000000LL + ts) + ", \"dur\": " + std::to_string(dur) +
           ", \"args\": {" + args + "}}";
  };
  auto launch = [&](int ts, int corr) { return x("cuda_runtime", "cudaLaunchKernel", 1, ts, 2, "\"correlation\": " + std::to_string(corr)); };
  auto kernel = [&](const char* name, int stream, int ts, int dur, int corr) {
    return x("kernel", name, stream, ts, dur, "\"correlation\": " + std::to_string(corr));
  };
  const std::vector<std::string> events = {
      x("user_annotation", "ProfilerStep#1", 1, 1000, 1000, ""),
      x("user_annotation", "attn(F)", 1, 1010, 20, ""), launch(1015, 1), kernel("gemm", 7, 1100, 50, 1),
      x("user_annotation", "dispatch(F)", 1, 1040, 10, ""), launch(1045, 2),
      kernel("void dpsk::ep::internode::dispatch<false>", 27, 1130, 40, 2),
      x("user_annotation", "attn(B)", 1, 1060, 10, ""), launch(1062, 3), kernel("gemm", 7, 1160, 40, 3),
      x("user_annotation", "mlp(W)", 1, 1080, 5, ""), launch(1081, 4), kernel("gemm", 23, 1165, 10, 4)};
  std::string text = "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 64}, \"traceEvents\": [";
  for (size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "\n") + events[i];
  std::ofstream(dir + "/train.json") << text << "]}";
  auto run = RunPpsim("explain " + dir + "/train.json --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);
  EXPECT_EQ(j["pair"], json::parse(R"({"span_us": 100.0, "F_us": 50.0, "B_us": 40.0, "W_us": 10.0, "comm_us": 40.0,
                                       "hidden_comm_us": 30.0})"));
  ASSERT_EQ(j["parts"].size(), 4u);
  EXPECT_EQ(j["parts"][1], json::parse(R"({"name": "dispatch", "kind": "F", "layer": 0, "cpu_us": 10.0,
                                           "gpu_us": 40.0, "streams": {"27": 40.0}})"));
  EXPECT_EQ(j["parts"][3]["streams"], json::parse(R"({"23": 10.0})"));
}

// Bad input: one line naming the file, a documented exit code, no output.
struct Bad {
  int exit_code;
  std::string message;
};

Bad RunBad(const std::string& args) {
  auto run = RunPpsim("explain " + args);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  return {run.exit_code, run.err};
}

TEST(ExplainCli, TruncatedTraceIsAParseErrorAtItsByte) {
  const std::string dir = TempDir("truncated");
  const std::string text = Slurp(kTraces + "pub-1f1b-P2-M4-none/rank0.json");
  std::ofstream(dir + "/rank0.json") << text.substr(0, text.size() / 2);
  const Bad bad = RunBad(dir + "/rank0.json");
  EXPECT_EQ(bad.exit_code, 7);
  EXPECT_NE(bad.message.find("rank0.json: byte "), std::string::npos) << bad.message;
}

TEST(ExplainCli, TraceWithoutPipelineRangesIsRefused) {
  const std::string dir = TempDir("nopp");
  std::ofstream(dir + "/r.json") << R"({"distributedInfo": {"rank": 0}, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2, "args": {"correlation": 1}}]})";
  const Bad bad = RunBad(dir + "/r.json");
  EXPECT_EQ(bad.exit_code, 7);
  EXPECT_NE(bad.message.find("r.json: no PP: ranges"), std::string::npos) << bad.message;
}

TEST(ExplainCli, TwoFilesClaimingOneRankAreRefused) {
  const std::string dir = TempDir("duplicate");
  std::filesystem::copy_file(kTraces + "pub-1f1b-P2-M4-none/rank0.json", dir + "/a.json");
  std::filesystem::copy_file(kTraces + "pub-1f1b-P2-M4-none/rank0.json", dir + "/b.json");
  const Bad bad = RunBad(dir);
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.message.find("both claim rank 0"), std::string::npos) << bad.message;
}

TEST(ExplainCli, GzThatIsNotGzipIsAnIoError) {
  const std::string dir = TempDir("notgz");
  std::filesystem::copy_file(kTraces + "pub-1f1b-P2-M4-none/rank0.json", dir + "/rank0.json.gz");
  const Bad bad = RunBad(dir + "/rank0.json.gz");
  EXPECT_EQ(bad.exit_code, 12);
  EXPECT_NE(bad.message.find("rank0.json.gz: named .gz but is not gzip"), std::string::npos) << bad.message;
}

TEST(ExplainCli, ActionsThatAreNoScheduleNameTheOp) {
  const std::string dir = TempDir("illegal");
  std::filesystem::copy_file(kTraces + "pub-1f1b-P2-M4-none/rank0.json", dir + "/rank0.json");
  std::string text = Slurp(kTraces + "pub-1f1b-P2-M4-none/rank1.json");
  for (size_t at = text.find("\"PP:1B3\""); at != std::string::npos; at = text.find("\"PP:1B3\"", at))
    text.replace(at, 8, "\"PP:1B2\"");  // B3 of stage 1 renamed B2: one op twice, one missing
  std::ofstream(dir + "/rank1.json") << text;
  const Bad bad = RunBad(dir);
  EXPECT_EQ(bad.exit_code, 8);
  EXPECT_NE(bad.message.find("B2@s1"), std::string::npos) << bad.message;
}

TEST(ExplainCli, OverlappingGpuRangesNameBothActions) {
  const std::string dir = TempDir("overlap");
  std::filesystem::copy_file(kTraces + "pub-1f1b-P2-M4-none/rank1.json", dir + "/rank1.json");
  std::string text = Slurp(kTraces + "pub-1f1b-P2-M4-none/rank0.json");
  // 0F1's GPU range moved 1 ms earlier, into 0F0's (its kernel stays: the annotation wins).
  const std::string from = R"("name": "PP:0F1", "pid": 0, "tid": 7, "ts": 5727640832851.047)";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), R"("name": "PP:0F1", "pid": 0, "tid": 7, "ts": 5727640831851.047)");
  std::ofstream(dir + "/rank0.json") << text;
  const Bad bad = RunBad(dir);
  EXPECT_EQ(bad.exit_code, 8);
  EXPECT_NE(bad.message.find("rank 0: action '0F1' starts on the GPU"), std::string::npos) << bad.message;
  EXPECT_NE(bad.message.find("before '0F0', issued before it, ends (GPU ranges overlap)"), std::string::npos)
      << bad.message;
}

TEST(ExplainCli, MissingRankIsNamed) {
  const Bad bad = RunBad(kTraces + "pub-1f1b-P4-M4-straggler/rank1.json " + kTraces +
                         "pub-1f1b-P4-M4-straggler/rank0.json " + kTraces + "pub-1f1b-P4-M4-straggler/rank3.json");
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.message.find("a rank is missing"), std::string::npos) << bad.message;
}

TEST(ExplainCli, ANegativeDurationIsRefusedNamingTheEvent) {
  const std::string dir = TempDir("negdur");
  std::string text = Slurp(kTraces + "pub-1f1b-P2-M4-none/rank0.json");
  // 0F1's GPU range: dur 1618.167 -> -1618.167.
  const std::string from = R"("name": "PP:0F1", "pid": 0, "tid": 7, "ts": 5727640832851.047, "dur": )";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + from.size(), "-");
  std::ofstream(dir + "/rank0.json") << text;
  const Bad bad = RunBad(dir + "/rank0.json");
  EXPECT_EQ(bad.exit_code, 7);
  EXPECT_NE(bad.message.find("rank0.json: byte "), std::string::npos) << bad.message;
  EXPECT_NE(bad.message.find("('PP:0F1', gpu_user_annotation): dur -"), std::string::npos) << bad.message;
  EXPECT_NE(bad.message.find(" µs is negative"), std::string::npos) << bad.message;
}

TEST(ExplainCli, CorruptGzipIsAnIoError) {
  const std::string dir = TempDir("corruptgz");
  std::ofstream(dir + "/rank0.json.gz", std::ios::binary) << std::string("\x1f\x8b\x08\x00garbage", 11);
  const Bad bad = RunBad(dir + "/rank0.json.gz");
  EXPECT_EQ(bad.exit_code, 12);
  EXPECT_NE(bad.message.find("rank0.json.gz: byte 0: corrupt gzip data"), std::string::npos) << bad.message;
}

}  // namespace
}  // namespace ppsim

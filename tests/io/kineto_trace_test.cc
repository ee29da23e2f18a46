// The Kineto trace reader (io/kineto_trace.h) against the public cases'
// ground truth (tests/data/traces/<case>/truth.json): every PP: action of
// every rank in the rank's issue order, and each compute action's CPU and
// GPU interval to the nanosecond — through the gpu_user_annotation events
// and, with those removed, through the launches' correlation ids alone.
// Bad files are refused with one line naming the file and the byte.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ppsim/io/kineto_trace.h"

namespace ppsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kTraces = std::string(PPSIM_TEST_DATA_DIR) + "/traces/";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("ppsim_kineto_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// A truth time in µs (printed with at most 3 decimals) as exact ns: the
// number's shortest round-trip text, read by the reader's own digit parser.
Tick Ns(const json& us) {
  const std::string text = us.dump();
  Tick ns = 0;
  EXPECT_TRUE(io::MicrosecondsToNs(text.data(), text.size(), ns)) << text;
  return ns;
}

struct Expected {
  std::string name;
  Tick cpu_start, cpu_end, gpu_start, gpu_end;
};

// Truth's compute ops of rank r on that rank's trace clock, in absolute ns:
// the trace writes ts = origin_trace_ts_us[r] + t, relative to baseTimeNanoseconds.
std::vector<Expected> TruthOps(const json& truth, int r) {
  const Tick base = truth["format"]["baseTimeNanoseconds"].get<Tick>();
  const Tick origin = Ns(truth["ranks"][r]["origin_trace_ts_us"]);
  std::vector<Expected> out;
  for (const json& op : truth["ops"][r])
    out.push_back({op["a"].get<std::string>(), base + origin + Ns(op["cpu_start_us"]),
                   base + origin + Ns(op["cpu_end_us"]), base + origin + Ns(op["gpu_start_us"]),
                   base + origin + Ns(op["gpu_end_us"])});
  return out;
}

// Checks one read trace against truth: every annotated action in order, and
// each compute action's intervals exactly.
void ExpectTruth(const io::KinetoTrace& t, const json& truth, int r, bool annotated) {
  SCOPED_TRACE("rank " + std::to_string(r));
  EXPECT_EQ(t.rank, r);
  EXPECT_EQ(t.world_size, truth["P"].get<int>());
  EXPECT_TRUE(t.relative);
  EXPECT_EQ("ProfilerStep#" + std::to_string(t.step), truth["format"]["profiler_step"].get<std::string>());
  std::vector<std::string> names;
  for (const auto& a : t.actions) names.push_back(a.name);
  EXPECT_EQ(names, truth["actions_annotated"][r].get<std::vector<std::string>>());
  const std::vector<Expected> ops = TruthOps(truth, r);
  size_t i = 0;
  for (const auto& a : t.actions) {
    if (i == ops.size() || a.name != ops[i].name) continue;  // SEND/RECV/REDUCE_GRAD
    EXPECT_EQ(a.cpu_start, ops[i].cpu_start) << a.name;
    EXPECT_EQ(a.cpu_end, ops[i].cpu_end) << a.name;
    EXPECT_EQ(a.gpu_start, ops[i].gpu_start) << a.name;
    EXPECT_EQ(a.gpu_end, ops[i].gpu_end) << a.name;
    EXPECT_EQ(a.annotated, annotated) << a.name;
    ++i;
  }
  EXPECT_EQ(i, ops.size()) << "compute actions found in the trace's order";
}

class KinetoTraceTruth : public ::testing::TestWithParam<std::string> {};

TEST_P(KinetoTraceTruth, EveryActionAndItsIntervalsToTheNanosecond) {
  const json truth = json::parse(Slurp(kTraces + GetParam() + "/truth.json"));
  for (int r = 0; r < truth["P"].get<int>(); ++r) {
    Result<io::KinetoTrace> t = io::ReadKinetoTrace(kTraces + GetParam() + "/rank" + std::to_string(r) + ".json");
    ASSERT_TRUE(t.ok()) << t.error().message;
    ExpectTruth(*t, truth, r, true);
  }
}

TEST_P(KinetoTraceTruth, KernelsAloneThroughTheirCorrelationGiveTheSameIntervals) {
  // Some traces carry no gpu_user_annotation: an op is then the span of the
  // kernels whose launch lies inside its CPU range (Kineto's annotation is
  // 1 ns wider on each side, which the reader takes off, so both agree).
  const json truth = json::parse(Slurp(kTraces + GetParam() + "/truth.json"));
  const fs::path dir = TempDir("kernels_" + GetParam());
  for (int r = 0; r < truth["P"].get<int>(); ++r) {
    json trace = json::parse(Slurp(kTraces + GetParam() + "/rank" + std::to_string(r) + ".json"));
    json kept = json::array();
    for (const json& e : trace["traceEvents"])
      if (e.value("cat", "") != "gpu_user_annotation") kept.push_back(e);
    ASSERT_LT(kept.size(), trace["traceEvents"].size());
    trace["traceEvents"] = kept;
    const std::string path = (dir / ("rank" + std::to_string(r) + ".json")).string();
    std::ofstream(path) << trace.dump();
    Result<io::KinetoTrace> t = io::ReadKinetoTrace(path);
    ASSERT_TRUE(t.ok()) << t.error().message;
    ExpectTruth(*t, truth, r, false);
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(PublicCases, KinetoTraceTruth,
                         ::testing::Values("pub-1f1b-P2-M4-none", "pub-1f1b-P4-M4-straggler"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(KinetoTrace, ACutFileIsAParseErrorAtAByteWhereverItIsCut) {
  const std::string text = Slurp(kTraces + "pub-1f1b-P2-M4-none/rank0.json");
  const fs::path dir = TempDir("cut");
  const std::string path = (dir / "rank0.json").string();
  for (size_t cut = 0; cut < text.size(); cut += text.size() / 97 + 1) {
    std::ofstream(path, std::ios::trunc) << text.substr(0, cut);
    Result<io::KinetoTrace> t = io::ReadKinetoTrace(path);
    ASSERT_FALSE(t.ok()) << "cut at " << cut;
    EXPECT_EQ(t.error().code, ErrorCode::kParse) << "cut at " << cut;
    EXPECT_EQ(t.error().message.find(path + ": byte "), 0u) << "cut at " << cut << ": " << t.error().message;
    EXPECT_EQ(t.error().message.find('\n'), std::string::npos) << t.error().message;
  }
  fs::remove_all(dir);
}

TEST(KinetoTrace, ANonGzipDotGzIsAnIoErrorNamingTheFile) {
  const fs::path dir = TempDir("notgz");
  const std::string path = (dir / "rank0.json.gz").string();
  fs::copy_file(kTraces + "pub-1f1b-P2-M4-none/rank0.json", path);
  Result<io::KinetoTrace> t = io::ReadKinetoTrace(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kIo);
  EXPECT_NE(t.error().message.find("rank0.json.gz: named .gz but is not gzip"), std::string::npos)
      << t.error().message;
  fs::remove_all(dir);
}

TEST(KinetoTrace, ATraceWithoutARankOrWithoutPipelineRangesIsRefused) {
  const fs::path dir = TempDir("norank");
  const std::string no_rank = (dir / "a.json").string();
  std::ofstream(no_rank) << R"({"traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "PP:0F0",
    "pid": 1, "tid": 1, "ts": 1.5, "dur": 2, "args": {"External id": 1}}]})";
  Result<io::KinetoTrace> t = io::ReadKinetoTrace(no_rank);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kParse);
  EXPECT_NE(t.error().message.find("a.json: no distributedInfo.rank"), std::string::npos) << t.error().message;
  const std::string no_pp = (dir / "b.json").string();
  std::ofstream(no_pp) << R"({"distributedInfo": {"rank": 3}, "traceEvents": [{"ph": "X", "cat": "user_annotation",
    "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 1.5, "dur": 2}]})";
  t = io::ReadKinetoTrace(no_pp);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kParse);
  EXPECT_NE(t.error().message.find("b.json: no PP: ranges"), std::string::npos) << t.error().message;
  fs::remove_all(dir);
}

// A one-rank trace of 0F0 and 0B0 whose 0F0 CPU range has `ts` and `dur`,
// and whose 0F0 GPU range has `gpu_dur`, written as given (JSON text).
std::string OneRank(const std::string& ts, const std::string& dur, const std::string& gpu_dur,
                    const std::string& base = "0") {
  return R"({"distributedInfo": {"rank": 0}, "baseTimeNanoseconds": )" + base + R"(, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": "not kept", "dur": -1},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0F0", "pid": 1, "tid": 1, "ts": )" + ts + R"(, "dur": )" + dur +
         R"(, "args": {"External id": 1}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "PP:0F0", "pid": 0, "tid": 7, "ts": 10, "dur": )" + gpu_dur +
         R"(, "args": {"External id": 1}},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0B0", "pid": 1, "tid": 1, "ts": 20, "dur": 2, "args": {"External id": 2}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "PP:0B0", "pid": 0, "tid": 7, "ts": 30, "dur": 5, "args": {"External id": 2}}]})";
}

TEST(KinetoTrace, ATimeTheReaderCannotHoldNamesTheEventAndItsByte) {
  const fs::path dir = TempDir("times");
  const std::string path = (dir / "r.json").string();
  std::ofstream(path, std::ios::trunc) << OneRank("1.5", "2", "5");
  Result<io::KinetoTrace> good = io::ReadKinetoTrace(path);  // the cpu_op's string ts is not read: not kept
  ASSERT_TRUE(good.ok()) << good.error().message;
  ASSERT_EQ(good->actions.size(), 2u);
  EXPECT_EQ(good->actions[0].gpu_end - good->actions[0].gpu_start, 4998);  // 5 µs less Kineto's 2 ns
  const struct {
    std::string text;
    std::string message;
  } cases[] = {
      {OneRank("1.5", "-2", "5"), "event 2 ('PP:0F0', user_annotation): dur -2 µs is negative"},
      {OneRank("\"soon\"", "2", "5"), "event 2 ('PP:0F0', user_annotation): ts \"soon\" is a string, not a number"},
      {OneRank("1e308", "2", "5"), "event 2 ('PP:0F0', user_annotation): ts 1e308 µs is out of range"},
      {OneRank("99999999999999999999", "2", "5"),
       "event 2 ('PP:0F0', user_annotation): ts 99999999999999999999 µs is out of range"},
      {OneRank("1.5", "2", "9223372036854775"),
       "event 3 ('PP:0F0', gpu_user_annotation): dur 9223372036854775 µs is out of range"},
      {OneRank("3000000000000000", "2000000000000000", "5"),
       "event 2 ('PP:0F0', user_annotation): ts + dur is out of range (2^62 ns)"},
      {OneRank("1.5", "2", "5", "9223372036854775807"), "baseTimeNanoseconds 9223372036854775807 is out of range"},
      {OneRank("1.5", "2", "5", "4611686018427387000"),
       "baseTimeNanoseconds 4611686018427387000 plus the events' ts is out of range (2^62 ns)"},
  };
  for (const auto& c : cases) {
    std::ofstream(path, std::ios::trunc) << c.text;
    Result<io::KinetoTrace> t = io::ReadKinetoTrace(path);
    ASSERT_FALSE(t.ok()) << c.message;
    EXPECT_EQ(t.error().code, ErrorCode::kParse) << t.error().message;
    EXPECT_EQ(t.error().message.find(path + ": "), 0u) << t.error().message;
    EXPECT_NE(t.error().message.find(c.message), std::string::npos) << t.error().message;
  }
  fs::remove_all(dir);
}

TEST(KinetoTrace, CorruptGzipIsAnIoError) {
  // gzip's magic bytes and a header, then no deflate stream: zlib reads 0
  // bytes and says "unexpected end of file"; that is no empty JSON document.
  const fs::path dir = TempDir("badgz");
  const std::string path = (dir / "rank0.json").string();
  std::ofstream(path, std::ios::binary) << std::string("\x1f\x8b\x08\x00garbage", 11);
  Result<io::KinetoTrace> t = io::ReadKinetoTrace(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kIo);
  EXPECT_NE(t.error().message.find("rank0.json: byte 0: corrupt gzip data"), std::string::npos) << t.error().message;
  fs::remove_all(dir);
}

TEST(KinetoTrace, MicrosecondsAreReadExactlyFromTheirDigits) {
  auto ns = [](const std::string& text) {
    Tick v = -7;
    return io::MicrosecondsToNs(text.data(), text.size(), v) ? v : Tick{-7};
  };
  EXPECT_EQ(ns("5727640830969.402"), Tick{5727640830969402});  // past double's 3-decimal exactness
  EXPECT_EQ(ns("1741360000830952"), Tick{1741360000830952000});  // absolute epoch µs (legacy layout)
  EXPECT_EQ(ns("0.001"), 1);
  EXPECT_EQ(ns("12.5"), 12500);
  EXPECT_EQ(ns("abc"), -7);
  EXPECT_EQ(ns("9223372036854779"), -7);  // µs whose ns would overflow int64
}

}  // namespace
}  // namespace ppsim

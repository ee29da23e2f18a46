// The trace reader's own streaming JSON parser (src/io/json_stream.h),
// through ReadKinetoTrace as `ppsim explain` calls it:
// - it accepts exactly the documents nlohmann's parser accepts, on every
//   one-byte change of a small trace;
// - a token cut by the reader's 1 MiB chunk boundary, at every offset of a
//   whole event, reads as the unpadded trace does;
// - strings with escapes, UTF-8 and surrogate pairs are decoded; a string
//   longer than a chunk is read whole;
// - each kind of syntax error is one line naming the file and its byte.
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

const std::string kTraces = std::string(PPSIM_TEST_DATA_DIR) + "/traces/";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Thousands of small files are written: in memory (/dev/shm) where there is
// one, as a disk that discards freed blocks makes each rewrite slow.
fs::path Scratch() {
  std::error_code ec;
  return fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0 ? fs::path("/dev/shm")
                                                                              : fs::temp_directory_path();
}

class Dir {
 public:
  explicit Dir(const std::string& name)
      : path_(Scratch() / ("ppsim_json_grammar_" + name + "_" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  ~Dir() { fs::remove_all(path_); }
  std::string Write(const std::string& text) const {
    const std::string p = (path_ / "rank0.json").string();
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
    return p;
  }

 private:
  fs::path path_;
};

// What a read gives, to compare two reads: the actions and their intervals.
std::string Summary(const Result<io::KinetoTrace>& t) {
  if (!t.ok()) return "error: " + t.error().message;
  std::string s = "rank " + std::to_string(t->rank) + " events " + std::to_string(t->events) + "\n";
  for (const auto& a : t->actions)
    s += a.name + " " + std::to_string(a.cpu_start) + " " + std::to_string(a.cpu_end) + " " +
         std::to_string(a.gpu_start) + " " + std::to_string(a.gpu_end) + "\n";
  return s;
}

// One rank of 0F0 and 0B0 with a name `name0` (a JSON string's source text) for 0F0's CPU range.
std::string Small(const std::string& name0 = R"("PP:0F0")") {
  return R"({"distributedInfo": {"rank": 0}, "baseTimeNanoseconds": 0, "traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": )" +
         name0 + R"(, "pid": 1, "tid": 1, "ts": 1.5, "dur": 2, "args": {"External id": 1}},
{"ph": "X", "cat": "gpu_user_annotation", "name": "PP:0F0", "pid": 0, "tid": 7, "ts": 10, "dur": 5e0, "args": {"External id": 1}},
{"ph": "X", "cat": "user_annotation", "name": "PP:0B0", "pid": 1, "tid": 1, "ts": 20, "dur": 2, "args": {"External id": 2}},
{"ph": "X", "cat": "gpu_user_annotation", "name": "PP:0B0", "pid": 0, "tid": 7, "ts": 30, "dur": 5, "args": {"External id": 2, "x": [true, false, null, -0.5E-3, {}, []]}}]})";
}

TEST(KinetoJsonGrammar, AcceptsWhatNlohmannAcceptsOnEveryOneByteChange) {
  const Dir dir("mutations");
  const std::string base = Small();
  const std::string swaps = "{}[]\",:0.e\\x";
  int refused = 0, checked = 0;
  for (size_t i = 0; i < base.size(); ++i) {
    std::vector<std::string> variants = {base.substr(0, i) + base.substr(i + 1)};  // the byte deleted
    for (char c : swaps)
      if (c != base[i]) variants.push_back(base.substr(0, i) + c + base.substr(i + 1));  // replaced
    for (const std::string& text : variants) {
      ++checked;
      const bool valid = nlohmann::json::accept(text);
      const Result<io::KinetoTrace> t = io::ReadKinetoTrace(dir.Write(text));
      if (valid) {
        // A valid document may still be no trace (no rank, a string ts), but never a syntax error.
        if (!t.ok()) {
          EXPECT_EQ(t.error().message.find("expected"), std::string::npos) << text << "\n" << t.error().message;
          EXPECT_EQ(t.error().message.find("invalid"), std::string::npos) << text << "\n" << t.error().message;
        }
        continue;
      }
      ++refused;
      ASSERT_FALSE(t.ok()) << "accepted an invalid document:\n" << text;
      EXPECT_EQ(t.error().code, ErrorCode::kParse) << t.error().message;
      EXPECT_NE(t.error().message.find("rank0.json: byte "), std::string::npos) << t.error().message;
      EXPECT_EQ(t.error().message.find('\n'), std::string::npos) << t.error().message;
    }
  }
  EXPECT_GT(refused, checked / 4);  // the changes do make invalid documents
}

TEST(KinetoJsonGrammar, ATokenCutByTheChunkBoundaryReadsAsAWholeOne) {
  // Leading spaces move the document so that the 1 MiB boundary falls at
  // each byte of its first events in turn: keys, strings, numbers, literals.
  const Dir dir("boundary");
  const std::string text = Slurp(kTraces + "pub-1f1b-P2-M4-none/rank0.json");
  const std::string expected = Summary(io::ReadKinetoTrace(dir.Write(text)));
  ASSERT_EQ(expected.find("error"), std::string::npos) << expected;
  const size_t chunk = size_t{1} << 20;
  const size_t first_event = text.find("{", text.find("traceEvents"));
  ASSERT_NE(first_event, std::string::npos);
  for (size_t k = 0; k < 240; ++k) {  // the first event (ProfilerStep#3, kept) is 210 bytes
    const size_t at = first_event + k;  // this byte lands first in the second chunk
    if (at > chunk) break;
    const std::string padded = std::string(chunk - at, ' ') + text;
    ASSERT_EQ(Summary(io::ReadKinetoTrace(dir.Write(padded))), expected) << "boundary before byte " << at;
  }
}

TEST(KinetoJsonGrammar, EscapesUtf8AndLongStringsAreDecoded) {
  const Dir dir("strings");
  const struct {
    std::string source;  // the name's JSON text
    std::string name;    // the action read from it
  } cases[] = {
      {R"("PP:0F0")", "0F0"},
      {R"("\u0050P:0F0")", "0F0"},         // an escaped 'P'
      {R"("PP\u003a0F0")", "0F0"},         // an escaped ':'
  };
  for (const auto& c : cases) {
    const Result<io::KinetoTrace> t = io::ReadKinetoTrace(dir.Write(Small(c.source)));
    ASSERT_TRUE(t.ok()) << c.source << ": " << t.error().message;
    ASSERT_FALSE(t->actions.empty());
    EXPECT_EQ(t->actions[0].name, c.name) << c.source;
  }
  // Strings the reader skips may hold any valid JSON string: escapes, UTF-8 of
  // 2-4 bytes, a surrogate pair, and one longer than two chunks.
  const std::string skipped = "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \\ud83d\\ude00 " +
                              std::string(size_t{3} << 20, 'x') + "\"";
  std::string text = Small();
  text.insert(text.find("\"traceEvents\""), "\"note\": " + skipped + ", ");
  const Result<io::KinetoTrace> t = io::ReadKinetoTrace(dir.Write(text));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->actions.size(), 2u);
}

TEST(KinetoJsonGrammar, EachSyntaxErrorIsOneLineNamingItsByte) {
  const Dir dir("errors");
  const std::string good = Small();
  const size_t ts = good.find("1.5");
  const struct {
    std::string text;
    std::string message;
  } cases[] = {
      {"", "byte 0: empty input; expected a JSON document"},
      {"   ", "unexpected end of input; expected a value"},
      {good + " x", "unexpected 'x' after the end of the document"},
      {good.substr(0, ts) + "01.5" + good.substr(ts + 3), "invalid number '01.5'"},
      {good.substr(0, ts) + "1.e5" + good.substr(ts + 3), "invalid number '1.e5'"},
      {good.substr(0, ts) + "tru" + good.substr(ts + 3), "invalid literal; expected 'true'"},
      {Small(R"("PP:\x0F0")"), "invalid escape \\'x' in a string"},
      {Small(R"("PP:\u00G0")"), "\\u must be followed by 4 hex digits"},
      {Small("\"PP:\xC0\xAF\""), "invalid UTF-8 (byte 0xC0) in a string"},
      {Small("\"PP:\xE2\x28\xA1\""), "invalid UTF-8 sequence in a string"},
      {Small("\"PP:\t\""), "a control character (byte 0x09) in a string must be escaped"},
      {Small(R"("\ud800x")"), "high surrogate without its low surrogate in a string"},
      {Small(R"("\udc00")"), "lone low surrogate \\udc00 in a string"},
      {R"({"a" 1})", "byte 5: expected ':' after a key, found '1'"},
      {R"({"a": 1 "b": 2})", "byte 8: expected ',' or '}', found '\"'"},
      {R"({1: 2})", "byte 1: expected a key (a string), found '1'"},
      {R"([1, 2)", "byte 5: unexpected end of input; expected ',' or a closing bracket"},
      {R"({"traceEvents": [)", "unexpected end of input; expected a value"},
      {std::string(20000, '['), "nesting deeper than 10000"},
  };
  for (const auto& c : cases) {
    const std::string path = dir.Write(c.text);
    const Result<io::KinetoTrace> t = io::ReadKinetoTrace(path);
    ASSERT_FALSE(t.ok()) << c.message;
    EXPECT_EQ(t.error().code, ErrorCode::kParse) << t.error().message;
    EXPECT_EQ(t.error().message.find(path + ": byte "), 0u) << t.error().message;
    EXPECT_NE(t.error().message.find(c.message), std::string::npos) << t.error().message;
    EXPECT_EQ(t.error().message.find('\n'), std::string::npos) << t.error().message;
  }
}

}  // namespace
}  // namespace ppsim

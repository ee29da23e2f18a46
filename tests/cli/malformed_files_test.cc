// Malformed input files through the shipped binaries, as a user meets them:
// `ppsim` (libstdc++ linked in) and `ppsim-render` (render's half), not a
// test's own link of the parsers. Each file of tests/malformed/ ends with
// its documented exit code and one line on stderr naming the file and the
// position; every input kept for the fuzz targets (tests/fuzz/<target>/)
// ends with some documented exit code, one line at most, and no signal.
// A toml++ parse error once aborted `ppsim` (exit 134, nothing said): the
// parser threw through one libstdc++ and ours could not catch it (issue 21).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/run_tool.h"
#include "cli/shell_run.h"
#include "ppsim/error.h"

namespace ppsim {
namespace {

namespace fs = std::filesystem;
using testing::RunPpsim;
using testing::ShellQuote;

const std::string kMalformed = std::string(PPSIM_SOURCE_DIR) + "/tests/malformed/";

// The file's one line, as the tool prints it.
struct Expected {
  const char* file;  // under tests/malformed/
  const char* line;  // stderr after "ppsim: <path>"
};

// toml++'s error classes, in a scene and in a cost file.
constexpr Expected kToml[] = {
    {"scene/bad_escape.toml",
     ":1:12: Error while parsing string: unknown escape sequence '\\q'"},
    {"scene/bad_number.toml",
     ":2:6: Error while parsing decimal integer: expected digit, saw 'x'"},
    {"scene/control_character.toml",
     ":1:11: Error while parsing string: unescaped control characters other than TAB (U+0009) are explicitly prohibited"},
    {"scene/duplicate_key.toml",
     ":3:5: Error while parsing key-value pair: cannot redefine existing integer 'P'"},
    {"scene/integer_too_large.toml",
     ":2:25: Error while parsing decimal integer: '99999999999999999999' is not representable in 64 bits"},
    {"scene/invalid_utf8.toml",
     ":1:9: Encountered invalid utf-8 sequence"},
    {"scene/nul_byte.toml",
     ":1:12: Error while parsing key-value pair: expected a comment or whitespace, saw '\\u0000'"},
    {"scene/open_array.toml",
     ":3:7: Error while parsing array: encountered end-of-file"},
    {"scene/open_inline_table.toml",
     ":2:20: Error while parsing inline table: expected key or closing '}', saw '\\n'"},
    {"scene/open_table.toml",
     ":2:8: Error while parsing table header: expected ']', saw '\\n'"},
    {"scene/table_redefined.toml",
     ":4:1: Error while parsing table header: cannot redefine existing table 'render'"},
    {"scene/unterminated_string.toml",
     ":1:11: Error while parsing string: encountered end-of-file"},
    {"cost/bad_number.toml",
     ":1:8: Error while parsing floating-point: expected decimal digit or exponent, saw '.'"},
    {"cost/duplicate_key.toml",
     ":2:5: Error while parsing key-value pair: cannot redefine existing integer 'F'"},
    {"cost/integer_too_large.toml",
     ":2:39: Error while parsing decimal integer: '99999999999999999999' is not representable in 64 bits"},
    {"cost/invalid_utf8.toml",
     ":1:8: Encountered invalid utf-8 sequence"},
    {"cost/open_array.toml",
     ":1:12: Error while parsing array: encountered end-of-file"},
    {"cost/table_redefined.toml",
     ":3:1: Error while parsing table header: cannot redefine existing table 'memory'"},
    {"cost/unterminated_string.toml",
     ":1:7: Error while parsing string: encountered end-of-file"},
};

// The commands that read each kind of file.
std::vector<std::string> CommandsFor(const std::string& file) {
  const std::string q = ShellQuote(kMalformed + file);
  if (file.rfind("scene/", 0) == 0)
    return {"check " + q, "check " + q + " --json", "render " + q + " -o /nonexistent/never.svg"};
  return {"simulate --cost-file " + q, "compare -s 1f1b,gpipe --cost-file " + q, "search -P 2 -M 2 --cost-file " + q};
}

class MalformedToml : public ::testing::TestWithParam<Expected> {};

TEST_P(MalformedToml, ExitsSevenWithOneLineNamingThePosition) {
  const Expected& c = GetParam();
  for (const std::string& args : CommandsFor(c.file)) {
    const testing::ToolRun run = RunPpsim(args);
    EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kParse)) << args << "\n" << run.err;
    EXPECT_EQ(run.err, "ppsim: " + kMalformed + c.file + c.line + "\n") << args;
    EXPECT_EQ(run.out, "") << args;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, MalformedToml, ::testing::ValuesIn(kToml),
                         [](const ::testing::TestParamInfo<Expected>& p) {
                           std::string name = p.param.file;
                           std::replace_if(name.begin(), name.end(), [](char ch) { return !std::isalnum(ch); }, '_');
                           return name;
                         });

// Every file of tests/malformed/ is in the table above: none is kept untried.
TEST(MalformedToml, EveryFileOfTheCorpusIsTried) {
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(kMalformed)) {
    if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
    const std::string rel = fs::relative(e.path(), kMalformed).string();
    EXPECT_TRUE(std::any_of(std::begin(kToml), std::end(kToml), [&](const Expected& c) { return rel == c.file; }))
        << rel << " is in tests/malformed/ but not in malformed_files_test.cc";
  }
}

// A file name that is not UTF-8 once aborted too ($'\xff.toml', signal 6).
TEST(MalformedToml, AFileNameThatIsNotUtf8) {
  testing::ScratchDir dir;
  const testing::DirRun run = testing::RunInDir(dir, "printf 'M = [\\n' > \"$(printf '\\377.toml')\"",
                                                "check \"$(printf '\\377.toml')\"");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kParse)) << run.err;
  EXPECT_EQ(run.err, "ppsim: \\xff.toml:1:7: Error while parsing array: encountered end-of-file\n");  // shown escaped
}

// What the fuzz targets keep, through the command that reads that format.
std::string CommandForFuzzInput(const std::string& target, const std::string& path) {
  const std::string q = ShellQuote(path);
  if (target == "scene_loader") return "check " + q;
  if (target == "timeline_json") return "validate " + q;
  if (target == "schedule_text") return "simulate --schedule-file " + q;
  if (target == "pytorch_csv") return "simulate --schedule-file " + q;  // named *.csv below
  return "";
}

bool OneLineAtMost(const std::string& err) {
  return err.empty() || (err.back() == '\n' && err.find('\n') == err.size() - 1);
}

// validate's answer to an illegal timeline is its report: one line per
// violation, then ppsim's one line (exit 10, docs/formats.md).
bool OneLineOrAReport(const std::string& err, int exit_code) {
  if (OneLineAtMost(err)) return true;
  const size_t last = err.rfind('\n', err.size() - 2);
  return exit_code == ExitCode(ErrorCode::kInvalidTimeline) && err.back() == '\n' &&
         err.compare(last + 1, 7, "ppsim: ") == 0;
}

TEST(FuzzInputs, EachEndsWithADocumentedExitCodeAndOneLine) {
  testing::ScratchDir dir;
  int tried = 0;
  for (const char* target : {"scene_loader", "timeline_json", "schedule_text", "pytorch_csv"}) {
    for (const fs::directory_entry& e : fs::directory_iterator(std::string(PPSIM_SOURCE_DIR) + "/tests/fuzz/" + target)) {
      std::string path = e.path().string();
      if (std::string(target) == "pytorch_csv") {  // the reader is chosen by the name's extension
        path = dir.path() + "/" + e.path().filename().string() + ".csv";
        fs::copy_file(e.path(), path, fs::copy_options::overwrite_existing);
      }
      const std::string args = CommandForFuzzInput(target, path) + " >/dev/null";
      const testing::ToolRun run = RunPpsim(args);
      const bool documented = run.exit_code == 0 || (run.exit_code >= 2 && run.exit_code <= 14);
      EXPECT_TRUE(documented) << args << " exited " << run.exit_code << "\n" << run.err;
      EXPECT_TRUE(OneLineOrAReport(run.err, run.exit_code)) << args << "\n" << run.err;
      ++tried;
    }
  }
  EXPECT_GT(tried, 20);
}

}  // namespace
}  // namespace ppsim

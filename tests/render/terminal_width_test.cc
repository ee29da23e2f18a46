// The terminal's text through the shipped binary, whose stdout is not a tty
// here: `simulate --format text` and `search` fit 80 columns, as `compare`
// does, and their legends and summaries wrap between phrases or at words,
// never inside a word ("in th/e cycle", "(0/.3333)" before).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> out;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

size_t Columns(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// `prose` (lines) as one line: each break and indent a single space, runs of
// spaces one space.
std::string Joined(const std::vector<std::string>& prose) {
  std::string s;
  for (const std::string& line : prose) s += " " + line;
  std::string out;
  for (char c : s)
    if (!(c == ' ' && (out.empty() || out.back() == ' '))) out += c;
  return out;
}

// The lines before the first blank one (title, subtitle, legend), and the
// lines from the one that starts with `summary_head` on (the summary).
std::vector<std::string> Head(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    if (l.empty()) break;
    out.push_back(l);
  }
  return out;
}
std::vector<std::string> From(const std::vector<std::string>& lines, const std::string& summary_head) {
  std::vector<std::string> out;
  bool on = false;
  for (const std::string& l : lines) {
    on = on || l.rfind(summary_head, 0) == 0;
    if (on && !l.empty()) out.push_back(l);
  }
  return out;
}

TEST(TerminalWidth, SimulateFitsEightyColumnsAndWrapsBetweenWords) {
  for (const std::string s : {"1f1b", "zbv", "dualpipe", "interleaved --chunks 2"}) {
    const std::string args = "simulate -s " + s + " -P 4 -M 8 --format text";
    const auto narrow = testing::RunPpsim(args);
    const auto wide = testing::RunPpsim(args + " --width 400");
    ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
    ASSERT_EQ(wide.exit_code, 0) << wide.err;
    const std::vector<std::string> lines = LinesOf(narrow.out), wide_lines = LinesOf(wide.out);
    for (const std::string& line : lines) EXPECT_LE(Columns(line), 80u) << s << ": " << line;
    // Wrapped only where a space was: joined again, the legend's longest
    // phrase reads whole ("in th/e cycle" before), and the summary reads as
    // at 400 columns, where nothing wraps.
    EXPECT_THAT(Joined(Head(lines)),
                ::testing::ContainsRegex("held: activations on the fullest device \\(F start to B/W end\\) in the "
                                         "cycle, in stage-sets|activations held on the fullest device \\(full = "
                                         "[0-9.]+ stage-sets; each cycle's under the chart\\)"))
        << s;
    const std::string name = s.substr(0, s.find(' '));
    EXPECT_EQ(Joined(From(lines, name + "  P=4")), Joined(From(wide_lines, name + "  P=4"))) << s;
    EXPECT_GT(Head(lines).size(), Head(wide_lines).size()) << s << ": the legend is wider than 80 columns";
  }
  // A metric's value and its decimal stay on one line.
  const auto run = testing::RunPpsim("simulate -s 1f1b -P 4 -M 8");
  EXPECT_THAT(run.out, HasSubstr("bubble_ratio 3/8 (0.3750)"));
  EXPECT_THAT(run.out, HasSubstr("bubble_fraction 3/11 (0.2727)"));
  for (const std::string& line : LinesOf(run.out)) EXPECT_LE(Columns(line), 80u) << line;
}

TEST(TerminalWidth, SearchFitsEightyColumns) {
  const auto run =
      testing::RunPpsim("search -P 4 -M 8 --comm 1 --max-activations 4 --time-limit 60");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const std::string& line : LinesOf(run.out)) EXPECT_LE(Columns(line), 80u) << line;
  EXPECT_THAT(run.out, HasSubstr("\nbudget 4 stage-sets/device: makespan 39  lower bound 33  gap "));
  EXPECT_THAT(run.out, ::testing::ContainsRegex("[0-9]+ candidates in [0-9.]+ s;"));
}

}  // namespace
}  // namespace ppsim

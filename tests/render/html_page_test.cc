// The HTML page in headless Chromium: it loads without script errors, and
// after scrubbing to tick k (the "#tick=k" fragment) exactly the ops that
// started before k are drawn. Skipped only when Chromium is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "ppsim/render/html_writer.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kChromium = "/usr/bin/chromium";

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class HtmlPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kChromium, X_OK) != 0) GTEST_SKIP() << kChromium << " is not installed";
    dir_ = fs::temp_directory_path() / ("ppsim-html-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    Fixture f({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6);
    auto m = NewMeasurer();
    list_ = std::move(*Layout(f.input, *m));
    std::ofstream(dir_ / "page.html") << WriteHtml(list_, PaceFor(list_.last_tick, 30));
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Chromium's DOM after the page's script ran, and what it logged.
  // `budget_ms` of virtual time lets the page's timers run that long at once.
  std::string DumpDom(const std::string& fragment, std::string* log, int budget_ms = 2000) {
    const fs::path profile = dir_ / ("profile-" + std::to_string(++runs_));
    const fs::path out = dir_ / "dom.html", err = dir_ / "stderr.txt";
    const std::string cmd = std::string("timeout 120 ") + kChromium +
                            " --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run"
                            " --disable-dev-shm-usage --enable-logging=stderr --v=0 --user-data-dir=" +
                            profile.string() + " --virtual-time-budget=" + std::to_string(budget_ms) + " --dump-dom 'file://" +
                            (dir_ / "page.html").string() + "#" + fragment + "' >" + out.string() + " 2>" +
                            err.string();
    const int status = std::system(cmd.c_str());
    EXPECT_EQ(status, 0) << cmd << "\n" << Slurp(err);
    *log = Slurp(err);
    return Slurp(out);
  }

  fs::path dir_;
  DisplayList list_;
  int runs_ = 0;
};

TEST_F(HtmlPageTest, ScrubbingToTickShowsExactlyTheOpsStartedBefore) {
  for (Tick k : {Tick{0}, Tick{5}, Tick{12}, list_.last_tick}) {
    std::string log;
    const std::string dom = DumpDom("tick=" + std::to_string(k), &log);
    EXPECT_THAT(dom, ::testing::HasSubstr("data-ready=\"1\""));
    EXPECT_THAT(dom, ::testing::HasSubstr("data-tick=\"" + std::to_string(k) + "\""));
    EXPECT_THAT(dom, ::testing::Not(::testing::HasSubstr("data-error")));
    EXPECT_THAT(log, ::testing::Not(::testing::HasSubstr("Uncaught")));
    EXPECT_THAT(log, ::testing::Not(::testing::HasSubstr(":CONSOLE")));  // the page logs nothing
    // Every op rect: drawn iff it started before k.
    const std::regex op_re("<rect[^>]*class=\"op\"[^>]*>");
    const std::regex start_re("data-start=\"(\\d+)\"");
    int ops = 0, drawn = 0;
    for (auto it = std::sregex_iterator(dom.begin(), dom.end(), op_re); it != std::sregex_iterator(); ++it) {
      const std::string tag = it->str();
      std::smatch start;
      ASSERT_TRUE(std::regex_search(tag, start, start_re)) << tag;
      const bool hidden = tag.find("display: none") != std::string::npos;
      EXPECT_EQ(!hidden, std::stoll(start[1]) < k) << "tick " << k << ": " << tag;
      ++ops;
      drawn += !hidden;
    }
    EXPECT_EQ(ops, 96) << "tick " << k;  // 2 runs x 48 ops
    if (k == 0) {
      EXPECT_EQ(drawn, 0);
    }
    if (k == list_.last_tick) {
      EXPECT_EQ(drawn, 96);
    }
  }
}

TEST_F(HtmlPageTest, PlaysToTheEndAndHolds) {
  // Opened without a tick, the page plays from tick 0: 18 ticks of half a
  // second, then it holds the final frame with the closing lines.
  std::string log;
  const std::string dom = DumpDom("", &log, 30000);
  EXPECT_THAT(dom, ::testing::HasSubstr("data-tick=\"" + std::to_string(list_.last_tick) + "\""));
  EXPECT_THAT(dom, ::testing::Not(::testing::HasSubstr("data-error")));
  EXPECT_THAT(log, ::testing::Not(::testing::HasSubstr(":CONSOLE")));
  EXPECT_NE(dom.find("\u25B6 play</button>"), std::string::npos);  // stopped at the end: the button offers play again
  const std::regex closing_re("<text[^>]*>closing line one</text>");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(dom, m, closing_re));
  EXPECT_EQ(m.str().find("display: none"), std::string::npos);
}

TEST_F(HtmlPageTest, OpensPausedAtTheRequestedTick) {
  std::ofstream(dir_ / "page.html") << WriteHtml(list_, PaceFor(list_.last_tick, 30), 7);
  std::string log;
  const std::string dom = DumpDom("", &log, 5000);  // time to play on, if it were playing
  EXPECT_THAT(dom, ::testing::HasSubstr("data-tick=\"7\""));
  EXPECT_THAT(dom, ::testing::Not(::testing::HasSubstr("data-error")));
}

}  // namespace
}  // namespace ppsim::render::testing

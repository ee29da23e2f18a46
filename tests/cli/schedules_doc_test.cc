// docs/schedules.md shows each schedule as the tool draws it: every
// "$ ppsim simulate ARGS --format text" block holds exactly what that command
// prints (regenerate with `python3 scripts/schedules_doc.py build/ppsim >
// docs/schedules.md`).
#include <gtest/gtest.h>

#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

TEST(SchedulesDoc, ChartsAreWhatTheToolPrints) {
  const std::string doc = testing::Slurp(std::string(PPSIM_SOURCE_DIR) + "/docs/schedules.md");
  const std::string prompt = "```\n$ ppsim ";
  int blocks = 0;
  for (size_t at = doc.find(prompt); at != std::string::npos; at = doc.find(prompt, at + 1)) {
    const size_t args_from = at + prompt.size();
    const size_t line_end = doc.find('\n', args_from);
    const size_t block_end = doc.find("```", line_end);
    ASSERT_NE(block_end, std::string::npos);
    const std::string args = doc.substr(args_from, line_end - args_from);
    const std::string shown = doc.substr(line_end + 1, block_end - line_end - 1);
    const auto run = testing::RunPpsim(args);
    EXPECT_EQ(run.exit_code, 0) << args << ": " << run.err;
    EXPECT_EQ(run.out, shown) << "docs/schedules.md is stale for `ppsim " << args
                              << "`: run python3 scripts/schedules_doc.py build/ppsim > docs/schedules.md";
    ++blocks;
  }
  EXPECT_EQ(blocks, 14);  // one per schedule
}

}  // namespace
}  // namespace ppsim

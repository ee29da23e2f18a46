// docs/findings.md is generated from ppsim's own output (scripts/findings.sh):
// regenerating it with the built binary must reproduce the committed page, so
// no number in it can go stale.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

TEST(Findings, TheCommittedPageIsWhatTheToolPrints) {
  const std::string out = ::testing::TempDir() + "/findings_" + std::to_string(::getpid()) + ".md";
  const std::string cmd = "PPSIM='" + std::string(PPSIM_BINARY) + "' bash '" + PPSIM_SOURCE_DIR +
                          "/scripts/findings.sh' '" + out + "' >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string fresh = testing::Slurp(out);
  std::remove(out.c_str());
  EXPECT_FALSE(fresh.empty());
  EXPECT_EQ(fresh, testing::Slurp(std::string(PPSIM_SOURCE_DIR) + "/docs/findings.md"))
      << "docs/findings.md is stale: run `bash scripts/findings.sh` and commit it";
}

}  // namespace
}  // namespace ppsim

// The README's "## Layout" section is where a new contributor finds the
// libraries: it names every folder of src/ (one library each) and every
// folder of include/ppsim/, so a new library that is not described there
// fails here.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

namespace fs = std::filesystem;

TEST(ReadmeLayout, NamesEveryLibraryFolder) {
  const std::string readme = testing::Slurp(std::string(PPSIM_SOURCE_DIR) + "/README.md");
  const size_t from = readme.find("\n## Layout\n");
  ASSERT_NE(from, std::string::npos);
  const std::string layout = readme.substr(from, readme.find("\n## ", from + 1) - from);
  int folders = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(PPSIM_SOURCE_DIR) / "src")) {
    if (!e.is_directory()) continue;
    ++folders;
    const std::string name = "src/" + e.path().filename().string() + "/";
    EXPECT_NE(layout.find("    " + name), std::string::npos) << "README's layout section has no line for " << name;
  }
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(PPSIM_SOURCE_DIR) / "include" / "ppsim")) {
    if (!e.is_directory()) continue;
    ++folders;
    const std::string name = e.path().filename().string() + "/";
    EXPECT_NE(layout.find(name), std::string::npos) << "README's layout section does not name include/ppsim/" << name;
  }
  EXPECT_GE(folders, 15);  // 10 under src/, 5 under include/ppsim/ when written
}

}  // namespace
}  // namespace ppsim

// Replays every input kept under tests/fuzz/<target>/ (crashes and hangs the
// fuzzers once found, and hand-made hostile inputs) through its target, in
// the ordinary build: a regression here is a crash, a sanitizer report in
// the ASan+UBSan suite, or a hang caught by ctest's timeout.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/targets/targets.h"

namespace ppsim {
namespace {

class FuzzRegressions : public ::testing::TestWithParam<fuzz::Target> {};

TEST_P(FuzzRegressions, EveryKeptInputRunsCleanly) {
  const fuzz::Target& t = GetParam();
  const std::filesystem::path dir = std::filesystem::path(PPSIM_SOURCE_DIR) / "tests" / "fuzz" / t.name;
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    SCOPED_TRACE(entry.path().string());
    EXPECT_EQ(t.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
    ++replayed;
  }
  EXPECT_GT(replayed, 0) << "no inputs kept in " << dir;
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegressions, ::testing::ValuesIn(fuzz::kTargets),
                         [](const ::testing::TestParamInfo<fuzz::Target>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace ppsim

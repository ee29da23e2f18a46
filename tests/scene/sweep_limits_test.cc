// Sweep sizes are checked before any work: ranges at the ends of int64 do
// not overflow, and a thread count beyond the cores runs (capped), with the
// same result as one thread.
#include <gtest/gtest.h>

#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/sweep.h"

namespace ppsim {
namespace {

TEST(SweepLimits, WholeInt64RangeIsRefusedBeforeBuildingIt) {
  Result<scene::SweepAxis> a = scene::ParseSweepAxis("P=-9223372036854775808..9223372036854775807");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(a.error().Text(),
            "sweep P=-9223372036854775808..9223372036854775807: more than 10000000 values");
  EXPECT_EQ(scene::ParseSweepAxis("x=9223372036854775806..9223372036854775807")->values.size(), 2u);  // a parameter: P would be out of range
}

TEST(SweepLimits, ThreadsBeyondTheCoresGiveTheSameResult) {
  const std::string path = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";
  Result<std::string> text = io::ReadFile(path);
  ASSERT_TRUE(text.ok());
  const std::vector<scene::SweepAxis> axes{*scene::ParseSweepAxis("P=1..3"), *scene::ParseSweepAxis("M=1..4")};
  Result<scene::SweepResult> many = scene::Sweep(*text, path, {}, axes, 100000);
  Result<scene::SweepResult> one = scene::Sweep(*text, path, {}, axes, 1);
  ASSERT_TRUE(many.ok() && one.ok());
  EXPECT_EQ(many->tried, 12);
  EXPECT_EQ(many->tried, one->tried);
  EXPECT_EQ(many->counterexamples.size(), one->counterexamples.size());
}

}  // namespace
}  // namespace ppsim

// The schedule readers on mangled input (fixed seed): every input is either
// a schedule or one error line — never a crash, a hang, or a partial result.
#include <gtest/gtest.h>

#include <random>

#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/schedule_text.h"

namespace ppsim {
namespace {

std::string Mangle(std::string text, std::mt19937& rng) {
  static const std::string kAlphabet = "0123456789FIWB@s(;)OVERLAP_F_B,\"\r\n #x";
  std::uniform_int_distribution<int> edits(1, 4);
  for (int n = edits(rng); n > 0 && !text.empty(); --n) {
    const size_t at = std::uniform_int_distribution<size_t>(0, text.size() - 1)(rng);
    const char c = kAlphabet[std::uniform_int_distribution<size_t>(0, kAlphabet.size() - 1)(rng)];
    switch (rng() % 3) {
      case 0: text[at] = c; break;
      case 1: text.insert(text.begin() + at, c); break;
      default: text.erase(at, 1);
    }
  }
  return text;
}

template <typename Read>
void Check(const std::string& seed_text, Read read) {
  std::mt19937 rng(12345);
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = Mangle(seed_text, rng);
    Result<io::ImportedSchedule> r = read(text);
    if (r.ok()) {
      ++accepted;
      EXPECT_GT(r->schedule.op_count(), 0);
    } else {
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
      EXPECT_NE(r.error().code, ErrorCode::kInternal);
    }
  }
  EXPECT_LT(accepted, 3000);
  EXPECT_GT(accepted, 0);
}

TEST(ReaderRobustness, PytorchCsv) {
  Check("0F0,0F1,0B0,,0B1\r\n1F0,1B0,1F1,1B1\r\n",
        [](const std::string& t) { return io::ReadPytorchCsv(t, "r.csv"); });
}

TEST(ReaderRobustness, ScheduleText) {
  Check("# c\nF0 F1 B0 B1 # d0\nF0 B0@s1 F1 B1\n", [](const std::string& t) { return io::ReadScheduleText(t, "r.txt"); });
}

}  // namespace
}  // namespace ppsim

// The key table (problem_keys.h): one check per key, whatever spelled the value.
#include "ppsim/problem_keys.h"

#include <gtest/gtest.h>

namespace ppsim {
namespace {

Error Set(const char* key, const char* text, Problem* p = nullptr) {
  Problem scratch;
  return SetProblemKey(key, KeyValue::FromText(text), p ? *p : scratch);
}

TEST(ProblemKeys, StoresEachKeyIntoTheProblem) {
  Problem p;
  ASSERT_TRUE(Set("P", "8", &p).ok());
  ASSERT_TRUE(Set("v", "2", &p).ok());  // the scene's spelling of chunks
  ASSERT_TRUE(Set("comm", "1:8:1", &p).ok());
  ASSERT_TRUE(Set("costs.F", "3:1:1:2", &p).ok());
  ASSERT_TRUE(Set("hold", "resident", &p).ok());
  ASSERT_TRUE(Set("memory.limit", "1400", &p).ok());
  EXPECT_EQ(p.P, 8);
  EXPECT_EQ(p.v, 2);
  EXPECT_EQ(p.comm_hops, (std::vector<Tick>{1, 8, 1}));
  EXPECT_EQ(p.costs.f, (std::vector<Tick>{3, 1, 1, 2}));
  EXPECT_EQ(p.hold, HoldMode::kResident);
  EXPECT_EQ(p.memory.limit, 1400);
  ASSERT_TRUE(Set("comm", "2", &p).ok());  // one value again: every hop
  EXPECT_EQ(p.comm, 2);
  EXPECT_TRUE(p.comm_hops.empty());
}

TEST(ProblemKeys, ErrorsNameTheKeyWithOneCodePerMistake) {
  Error e = Set("P", "0");
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.Text(), "P must be ≥ 1, got 0");
  EXPECT_EQ(e.field, "P");
  e = Set("P", "x");
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.Text(), "P: 'x' is not a whole number");
  e = Set("P", "5000");
  EXPECT_EQ(e.code, ErrorCode::kTooLarge);
  EXPECT_EQ(e.Text(), "P: 5000 exceeds the limit 4096");
  EXPECT_EQ(Set("M", "99999999999999999999").code, ErrorCode::kTooLarge);
  EXPECT_EQ(Set("P", "1:2").code, ErrorCode::kInvalidValue);  // one number, not a list
  EXPECT_EQ(Set("costs.B", "0").Text(), "costs.B must be ≥ 1, got 0");
  EXPECT_EQ(Set("hold", "always").Text(), "hold: 'always' is not one of held, resident");
  EXPECT_EQ(Set("memory.freed_by_b_percent", "120").Text(), "memory.freed_by_b_percent must be ≤ 100, got 120");
  EXPECT_EQ(Set("memory.freed_by_b_percent", "120").code, ErrorCode::kInvalidValue);
  e = Set("Q", "1");
  EXPECT_EQ(e.code, ErrorCode::kUnknownName);
  EXPECT_EQ(e.Text().rfind("Q: no such key (known: P, M, chunks,", 0), 0u) << e.Text();
}

TEST(ProblemKeys, ErrorsTakeAPositionAndAFrontEndsSpelling) {
  const Error e = Set("chunks", "0");
  EXPECT_EQ(e.At("s.toml", 3, 10).Text(), "s.toml:3:10: chunks must be ≥ 1, got 0");
  EXPECT_EQ(e.Via("set", "v=0").Text(), "set v=0: chunks must be ≥ 1, got 0");
  EXPECT_EQ(e.Via("set", "v=0").At("s.toml", 3).Text(), "set v=0: chunks must be ≥ 1, got 0");  // placed already
  EXPECT_EQ(e.Renamed("--chunks").Text(), "--chunks must be ≥ 1, got 0");
  EXPECT_EQ(e.With("run A").Renamed("--chunks").Text(), "run A: chunks must be ≥ 1, got 0");  // context fixes the name
}

TEST(ProblemKeys, TheTableListsEveryKeyOnce) {
  std::vector<std::string> names;
  for (const ProblemKey& k : KeyTable()) {
    for (const std::string& n : names) EXPECT_NE(n, k.name);
    names.push_back(k.name);
    EXPECT_NE(std::string(k.doc), "");
    EXPECT_EQ(FindProblemKey(k.name), &k);
  }
  for (const char* key : {"P", "M", "chunks", "comm", "hold", "costs.F", "costs.B", "costs.W", "costs.FB",
                          "memory.activation_bytes", "memory.limit"})
    EXPECT_NE(FindProblemKey(key), nullptr) << key;
  const std::string text = KeyTableText();
  EXPECT_NE(text.find("\nP "), std::string::npos);
  EXPECT_NE(text.find("1..4096"), std::string::npos);
  EXPECT_NE(text.find("1..2^20"), std::string::npos);
}

}  // namespace
}  // namespace ppsim

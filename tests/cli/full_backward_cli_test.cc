// A full backward (input and weight gradients in one op) through the CLI:
// DualPipeV's timeline marks it `"full": true`, validates clean, and the
// backward upstream of it starts only after it ends; `validate` holds it to
// its B+W cost; `--no-overlap` runs every pair as F then B.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using testing::RunPpsim;
using testing::Slurp;

using Key = std::tuple<std::string, int, int>;  // kind, microbatch, stage

std::map<Key, nlohmann::json> ByOp(const nlohmann::json& ops) {
  std::map<Key, nlohmann::json> out;
  for (const auto& o : ops) out[{o["kind"], o["microbatch"], o["stage"]}] = o;
  return out;
}

TEST(FullBackwardCli, DualPipeVUpstreamWaitsForTheWholeBackward) {
  const std::string file = ::testing::TempDir() + "/dpv_full.json";
  auto r = RunPpsim("simulate -s dualpipev -P 4 -M 10 --cost F=2,B=2,W=1 --comm 1 --json -o " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto v = RunPpsim("validate " + file);
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("legal and tight"), std::string::npos) << v.out;

  const auto j = nlohmann::json::parse(Slurp(file));
  const auto ops = ByOp(j["ops"]);
  int full = 0, full_in_pairs = 0, waited_exactly = 0;
  for (const auto& [key, o] : ops) {
    if (!o.value("full", false)) continue;
    const auto& [kind, m, s] = key;
    ++full;
    EXPECT_EQ(kind, "B");
    EXPECT_EQ(ops.count({"W", m, s}), 0u) << "a full backward has no W: B" << m << "@s" << s;
    const long len = o["end"].get<long>() - o["start"].get<long>();
    if (o.contains("overlap")) {
      ++full_in_pairs;
      EXPECT_EQ(len, 2 + 3) << "F + full B";
    } else {
      EXPECT_EQ(len, 3) << "B + W";
    }
    if (s == 0) continue;
    const auto& up = ops.at({"B", m, s - 1});
    const long comm = up["device"] == o["device"] ? 0 : 1;
    EXPECT_GE(up["start"].get<long>(), o["end"].get<long>() + comm) << "B" << m << "@s" << s - 1;
    waited_exactly += up["start"].get<long>() == o["end"].get<long>() + comm;
  }
  EXPECT_GT(full_in_pairs, 30);
  EXPECT_GT(full, full_in_pairs);
  EXPECT_GT(waited_exactly, 0);
  std::remove(file.c_str());
}

TEST(FullBackwardCli, ValidateHoldsAFullBackwardToItsCost) {
  const std::string file = ::testing::TempDir() + "/dpv_short.json";
  auto r = RunPpsim("simulate -s dualpipev -P 2 -M 4 --cost F=2,B=2,W=1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  bool cut = false;
  for (auto& o : j["ops"]) {
    if (cut || !o.value("full", false) || o.contains("overlap")) continue;
    o["full"] = false;  // as a split B it would last 2, not 3
    cut = true;
  }
  ASSERT_TRUE(cut);
  std::ofstream(file) << j.dump();
  auto v = RunPpsim("validate " + file);
  EXPECT_NE(v.exit_code, 0);
  EXPECT_NE(v.err.find("lasts 3 ticks but its cost is 2"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("is missing"), std::string::npos) << v.err;  // and its W is now missing
  std::remove(file.c_str());
}

TEST(FullBackwardCli, NoOverlapRunsEachPairAsForwardThenBackward) {
  auto a = RunPpsim("simulate -s dualpipe -P 4 -M 8 --json");
  auto b = RunPpsim("simulate -s dualpipe -P 4 -M 8 --no-overlap --json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  int pairs = 0;
  for (const auto& o : ja["ops"]) pairs += o.contains("overlap");
  EXPECT_GT(pairs, 0);
  for (const auto& o : jb["ops"]) EXPECT_FALSE(o.contains("overlap")) << o.dump();
  EXPECT_EQ(ja["ops"].size(), jb["ops"].size());
}

TEST(FullBackwardCli, DeepSeeksPreconditions) {
  EXPECT_EQ(RunPpsim("simulate -s dualpipev -P 3 -M 7").exit_code, 0);  // odd P and M are fine
  auto r = RunPpsim("simulate -s dualpipev -P 3 -M 5");
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("M ≥ 2P"), std::string::npos) << r.err;
  r = RunPpsim("simulate -s dualpipe -P 4 -M 10");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = RunPpsim("simulate -s dualpipe -P 4 -M 11");
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("even M ≥ 2P"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ppsim

// `ppsim explain` of traces whose ranges include PyTorch's overlapped
// actions, "PP:(0F7;7B3)OVERLAP_F_B" (ScheduleDualPipeV): DualPipeV traces
// of the generator's making (kineto_writer.h) read back to their orders,
// their schedule's name, the pair's fitted FB cost and the makespans; a
// malformed pair refused naming the file and the action.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/kineto_writer.h"
#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;
using testing::TraceSpec;

std::string Dir(const std::string& name) {
  const std::string dir = "/tmp/ppsim_explain_pairs_" + std::to_string(::getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// DualPipeV on P ranks, M = 2P; a pair costs 80 % of its F + full backward.
TraceSpec DualPipeV(int P, unsigned seed) {
  TraceSpec s;
  s.schedule = "dualpipev";
  s.P = P, s.M = 2 * P, s.v = 2, s.seed = seed;
  for (int k = 0; k < 2 * P; ++k) {
    s.f.push_back(500'000 + 11'000 * k);
    s.b.push_back(520'000 + 7'000 * k);
    s.w.push_back(380'000 + 5'000 * k);
  }
  for (int k = 0; k < 2 * P; ++k) s.fb.push_back(1'200'000 + 9'000 * k);
  return s;
}

TEST(ExplainOverlapped, DualPipeVPairsReadBackToTheTruth) {
  for (int P : {2, 4}) {
    const TraceSpec spec = DualPipeV(P, 20 + P);
    const std::string name = "dualpipev_P" + std::to_string(P);
    const std::string dir = Dir(name);
    const testing::TraceTruth truth = testing::WriteTraces(spec, dir);
    ASSERT_EQ(truth.files.size(), static_cast<size_t>(P));
    // The generator wrote pairs, as PyTorch prints them.
    bool pairs = false;
    for (const auto& order : truth.orders)
      for (const auto& a : order) pairs = pairs || a.ends_with(")OVERLAP_F_B");
    ASSERT_TRUE(pairs) << name;
    auto run = RunPpsim("explain " + dir + " --json");
    ASSERT_EQ(run.exit_code, 0) << name << ": " << run.err;
    const json j = json::parse(run.out);
    EXPECT_EQ(j["orders"], json(truth.orders)) << name;
    EXPECT_EQ(j["schedule"], "dualpipev") << name;
    EXPECT_EQ(j["placement"], "v-shape") << name;
    EXPECT_EQ(j["P"], P);
    EXPECT_EQ(j["M"], 2 * P);
    EXPECT_EQ(j["v"], 2);
    const double truth_us = static_cast<double>(truth.makespan) / 1000.0;
    EXPECT_NEAR(j["measured"]["makespan_us"].get<double>(), truth_us, 0.001 * truth_us) << name;
    EXPECT_NEAR(j["replay"]["makespan_us"].get<double>(), truth_us, 0.005 * truth_us) << name;
    EXPECT_NEAR(j["ideal"]["makespan_us"].get<double>(), truth_us, 0.02 * truth_us) << name;
    // FB per stage of the pair's forward: a median of 3 or more within 3 % of
    // the true pair cost, a single pair within its noise (2 % lognormal, 4 sigma).
    int medians = 0;
    for (const auto& c : j["costs_us"]) {
      if (!c.contains("FB")) continue;
      const double want = static_cast<double>(spec.fb[c["stage"].get<int>()]) / 1000.0;
      const bool median = c["count"]["FB"].get<int>() >= 3;
      EXPECT_NEAR(c["FB"].get<double>(), want, (median ? 0.03 : 0.08) * want) << name << " " << c.dump();
      medians += median;
    }
    if (P == 4) {  // P 2, M 4 runs 2 pairs a stage at most
      EXPECT_GT(medians, 0) << name;
    }
    for (const auto& f : j["findings"]) EXPECT_NE(f["kind"], "host_bound") << name << " " << f.dump();
    // The text report prints the pairs as PyTorch's strings.
    auto text = RunPpsim("explain " + dir);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("schedule dualpipev"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(")OVERLAP_F_B "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("  FB "), std::string::npos) << text.out;
    // The exported costs carry FB, which simulate reads.
    auto exported = RunPpsim("explain " + dir + " --export-costs " + dir + "/costs.toml");
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    std::ifstream in(dir + "/costs.toml");
    std::stringstream toml;
    toml << in.rdbuf();
    EXPECT_NE(toml.str().find("\nFB = ["), std::string::npos) << toml.str();
  }
}

// The first pair in rank 0's trace, rewritten everywhere it occurs.
void Rewrite(const std::string& file, const std::string& from, const std::string& to) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  std::ofstream(file) << text;
}

TEST(ExplainOverlapped, AMalformedPairIsRefusedNamingTheFileAndTheAction) {
  struct Case {
    std::string name;
    std::string (*bad)(const std::string& pair);  // the pair's string, malformed
    std::string why;
  };
  const Case cases[] = {
      {"unclosed", [](const std::string& p) { return p.substr(0, p.find(')')); }, "does not end in ')OVERLAP_F_B'"},
      {"one", [](const std::string& p) { return p.substr(0, p.find(';')) + p.substr(p.find(')')); },
       "is not two actions joined by ';'"},
      {"two_f", [](const std::string& p) {
         std::string q = p;
         q[q.find('B')] = 'F';
         return q;
       }, "is not one forward (F) and one backward (B or I)"},
  };
  for (const Case& c : cases) {
    const std::string dir = Dir(c.name);
    const testing::TraceTruth truth = testing::WriteTraces(DualPipeV(2, 31), dir);
    std::string pair;
    for (const auto& a : truth.orders[0])
      if (pair.empty() && a.ends_with(")OVERLAP_F_B")) pair = a;
    ASSERT_FALSE(pair.empty());
    const std::string bad = c.bad(pair);
    Rewrite(dir + "/rank0.json", "\"PP:" + pair + "\"", "\"PP:" + bad + "\"");
    auto run = RunPpsim("explain " + dir + " --json");
    EXPECT_EQ(run.exit_code, 8) << c.name << ": " << run.err;
    EXPECT_TRUE(run.out.empty()) << c.name;
    EXPECT_EQ(run.err, "ppsim: " + dir + "/rank0.json: rank 0: action '" + bad + "' is no overlapped pair: it " + c.why +
                           "\n")
        << c.name;
  }
}

}  // namespace
}  // namespace ppsim

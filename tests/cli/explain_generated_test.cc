// `ppsim explain` on traces of its own making (kineto_writer.h): other
// schedules (interleaved, ZB-H1 with I and W), seeds, sizes, both timestamp
// layouts, and traces with no gpu_user_annotation (kernels only). The
// orders, the schedule's name, the makespans, the skews and a straggler are
// checked against the generator's truth.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/kineto_writer.h"
#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;
using testing::TraceSpec;
using testing::TraceTruth;

std::string Dir(const std::string& name) {
  const std::string dir = "/tmp/ppsim_explain_gen_" + std::to_string(::getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TraceSpec Spec(const std::string& schedule, int P, int M, int v, unsigned seed) {
  TraceSpec s;
  s.schedule = schedule;
  s.P = P, s.M = M, s.v = v, s.seed = seed;
  for (int k = 0; k < P * v; ++k) {
    s.f.push_back(900'000 + 37'000 * k);
    s.b.push_back(1'000'000 + 21'000 * k);
    s.w.push_back(700'000 + 13'000 * k);
  }
  return s;
}

struct Explained {
  TraceTruth truth;
  json j;
};

Explained Explain(const TraceSpec& spec, const std::string& name, const std::string& extra = "") {
  Explained e;
  const std::string dir = Dir(name);
  e.truth = testing::WriteTraces(spec, dir);
  EXPECT_EQ(e.truth.files.size(), static_cast<size_t>(spec.P)) << name;
  auto run = RunPpsim("explain " + dir + " --json" + extra);
  EXPECT_EQ(run.exit_code, 0) << name << ": " << run.err;
  if (run.exit_code == 0) e.j = json::parse(run.out);
  return e;
}

void ExpectTruth(const TraceSpec& spec, const std::string& name) {
  const Explained e = Explain(spec, name);
  ASSERT_FALSE(e.j.is_null()) << name;
  EXPECT_EQ(e.j["orders"], json(e.truth.orders)) << name;
  EXPECT_EQ(e.j["schedule"], spec.schedule) << name;
  EXPECT_EQ(e.j["P"], spec.P);
  EXPECT_EQ(e.j["v"], spec.v);
  EXPECT_EQ(e.j["step"], 5) << name << ": the last complete step";
  const double truth_us = static_cast<double>(e.truth.makespan) / 1000.0;
  // No host delay in these traces: measured and replay are the placement itself.
  EXPECT_NEAR(e.j["measured"]["makespan_us"].get<double>(), truth_us, 0.001 * truth_us) << name;
  EXPECT_NEAR(e.j["replay"]["makespan_us"].get<double>(), truth_us, 0.001 * truth_us) << name;
  for (int r = 0; r < spec.P; ++r)
    EXPECT_NEAR(e.j["skew_us"][r].get<double>(), (e.truth.skew[r] - e.truth.skew[0]) / 1000.0, 1.0) << name << " rank " << r;
  for (const auto& hop : e.j["hops"])
    EXPECT_NEAR(hop["latency_us"].get<double>(), spec.latency / 1000.0, 1.0) << name << " " << hop.dump();
  for (const auto& f : e.j["findings"]) EXPECT_NE(f["kind"], "host_bound") << name;
}

TEST(ExplainGenerated, OneFOneBOverSeedsAndSizes) {
  for (unsigned seed : {1u, 2u, 3u}) ExpectTruth(Spec("1f1b", 4, 8, 1, seed), "1f1b_s" + std::to_string(seed));
  ExpectTruth(Spec("1f1b", 8, 16, 1, 4), "1f1b_p8");
  ExpectTruth(Spec("gpipe", 3, 5, 1, 5), "gpipe_p3");
}

TEST(ExplainGenerated, InterleavedOnTwoChunksPerRank) { ExpectTruth(Spec("interleaved", 4, 8, 2, 6), "interleaved"); }

TEST(ExplainGenerated, ZeroBubbleWithInputAndWeightGradients) {
  ExpectTruth(Spec("zb-h1", 4, 8, 1, 7), "zbh1");
  const Explained e = Explain(Spec("zb-h1", 4, 8, 1, 7), "zbh1_costs");
  // I and W fitted apart, as the trace names them.
  EXPECT_TRUE(e.j["costs_us"][0].contains("I"));
  EXPECT_TRUE(e.j["costs_us"][0].contains("W"));
  EXPECT_NEAR(e.j["costs_us"][0]["I"].get<double>(), 1000.0, 30.0);
}

TEST(ExplainGenerated, LegacyLayoutInAbsoluteMicroseconds) {
  TraceSpec spec = Spec("1f1b", 4, 6, 1, 8);
  spec.legacy = true;
  ExpectTruth(spec, "legacy");
}

TEST(ExplainGenerated, KernelsAloneGiveTheSameRuns) {
  TraceSpec spec = Spec("1f1b", 4, 6, 1, 9);
  const Explained annotated = Explain(spec, "annotated");
  spec.annotations = false;
  const Explained kernels = Explain(spec, "kernels");
  ASSERT_FALSE(kernels.j.is_null());
  EXPECT_EQ(kernels.j["orders"], annotated.j["orders"]);
  EXPECT_EQ(kernels.j["measured"], annotated.j["measured"]);
  EXPECT_EQ(kernels.j["replay"], annotated.j["replay"]);
}

TEST(ExplainGenerated, StragglerNamedWithEqualStages) {
  TraceSpec spec = Spec("1f1b", 4, 8, 1, 10);
  for (int k = 0; k < 4; ++k) spec.f[k] = 1'000'000, spec.b[k] = 1'200'000, spec.w[k] = 800'000;
  spec.straggler = 2;
  spec.factor = 1.25;
  const Explained e = Explain(spec, "straggler", " --equal-stages");
  ASSERT_FALSE(e.j.is_null());
  ASSERT_FALSE(e.j["findings"].empty());
  EXPECT_EQ(e.j["findings"][0]["kind"], "straggler");
  EXPECT_EQ(e.j["findings"][0]["rank"], 2);
  EXPECT_GT(e.j["findings"][0]["lost_us"].get<double>(), 0.0);
  EXPECT_LT(e.j["ideal"]["makespan_us"].get<double>(), e.j["replay"]["makespan_us"].get<double>());
}

TEST(ExplainGenerated, ACustomOrderIsBeatenByARegistryOneInTheSameMemory) {
  // 1F1B but rank 0 runs all its F, then its B last microbatch first: it
  // holds M sets, and its first backward waits for rank 1's last one.
  TraceSpec spec = Spec("1f1b", 4, 8, 1, 12);
  spec.fill_drain = 0;
  const Explained e = Explain(spec, "fill_drain");
  ASSERT_FALSE(e.j.is_null());
  EXPECT_EQ(e.j["orders"], json(e.truth.orders));
  EXPECT_TRUE(e.j["schedule"].is_null());  // no registry schedule runs this order
  ASSERT_FALSE(e.j["findings"].empty());
  const json& f = e.j["findings"][0];
  EXPECT_EQ(f["kind"], "order") << f.dump();
  // GPipe and 1F1B both fit in rank 0's 8 sets; either ends about 7 backwards sooner.
  EXPECT_TRUE(f["op"] == "1f1b" || f["op"] == "gpipe") << f.dump();
  const double plain = Explain(Spec("1f1b", 4, 8, 1, 12), "plain").j["ideal"]["makespan_us"].get<double>();
  EXPECT_NEAR(f["lost_us"].get<double>(), e.j["ideal"]["makespan_us"].get<double>() - plain, 0.01 * plain) << f.dump();
  EXPECT_GT(f["lost_us"].get<double>(), 5000.0);
}

TEST(ExplainGenerated, StepChosenOrAskedFor) {
  const std::string dir = Dir("step");
  testing::WriteTraces(Spec("1f1b", 2, 3, 1, 11), dir);
  auto six = RunPpsim("explain " + dir + " --step 6");
  EXPECT_EQ(six.exit_code, 8) << six.err;  // step 6 was cut off: its range has no GPU work
  EXPECT_NE(six.err.find("has no GPU work"), std::string::npos) << six.err;
  auto nine = RunPpsim("explain " + dir + " --step 9");
  EXPECT_EQ(nine.exit_code, 3);
  EXPECT_NE(nine.err.find("no ProfilerStep#9 (the trace has 5, 6)"), std::string::npos) << nine.err;
}

}  // namespace
}  // namespace ppsim

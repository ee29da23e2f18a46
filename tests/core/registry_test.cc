// The schedule registry (generators.h): one entry per schedule, found by
// name, and each schedule's closed forms (closed_forms.h) as `compare`
// prints them.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "ppsim/closed_forms.h"
#include "ppsim/generators.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

TEST(Registry, EveryScheduleHasOneUniqueNameADescriptionAndAGenerator) {
  std::set<std::string> names;
  for (const GeneratorInfo& g : Generators()) {
    EXPECT_FALSE(g.name.empty());
    EXPECT_TRUE(names.insert(g.name).second) << "duplicate schedule name " << g.name;
    EXPECT_FALSE(g.description.empty()) << g.name;
    EXPECT_FALSE(g.preconditions.empty()) << g.name;
    EXPECT_NE(g.generate, nullptr) << g.name;
    EXPECT_EQ(FindGenerator(g.name), &g) << g.name;
  }
  EXPECT_EQ(FindGenerator("no-such-schedule"), nullptr);
}

std::string Describe(const Prediction& p) {
  std::string out;
  // The form of the metric named `metric`, if any, as " label=value formula".
  size_t described = 0;
  auto form = [&](const char* metric, const char* label) {
    const PredictedMetric* f = p.Find(metric);
    if (f == nullptr) return;
    out += std::string(" ") + label + "=" + f->value.ToString() + " " + f->formula;
    ++described;
  };
  form("makespan", "makespan");
  form("bubble_ratio", "bubble");
  if (p.peak_per_device) {
    out += " peak=";
    for (std::int64_t x : *p.peak_per_device) out += std::to_string(x) + ",";
    out += " " + p.peak_formula;
  }
  if (p.peak_max) out += " peak_max=" + std::to_string(*p.peak_max) + " " + p.peak_max_formula;
  form("max_span_idle", "span_idle");
  form("max_device_idle", "device_idle");
  if (described != p.forms.size()) out += " and forms of other metrics";
  return out;
}

// A few problems inside and outside each schedule's assumptions.
std::vector<Problem> Problems() {
  auto make = [](int P, int M, int v, Tick f, Tick b, Tick w, HoldMode hold) {
    Problem p;
    p.P = P;
    p.M = M;
    p.v = v;
    p.costs.f = {f};
    p.costs.b = {b};
    p.costs.w = {w};
    p.hold = hold;
    return p;
  };
  std::vector<Problem> out = {
      make(4, 8, 1, 1, 1, 1, HoldMode::kHeld),       // 0
      make(4, 8, 1, 2, 3, 1, HoldMode::kResident),   // 1
      make(4, 6, 1, 1, 1, 1, HoldMode::kResident),   // 2: M < 2P-1
      make(4, 8, 2, 1, 1, 1, HoldMode::kResident),   // 3
      make(4, 8, 1, 1, 1, 1, HoldMode::kHeld),       // 4: latency
      make(6, 12, 2, 2, 2, 1, HoldMode::kResident),  // 5: F&B pair given
      make(4, 8, 1, 1, 1, 1, HoldMode::kHeld),       // 6: costs per stage
      make(4, 8, 2, 1, 1, 1, HoldMode::kResident),   // 7: Megatron group 6
      make(4, 8, 1, 1, 2, 2, HoldMode::kResident),   // 8: W > F
      make(5, 7, 3, 1, 1, 1, HoldMode::kResident),   // 9: rounds of 7 (P does not divide M)
      make(4, 6, 2, 1, 1, 1, HoldMode::kResident),   // 10: a round of 6
      make(3, 6, 2, 1, 1, 1, HoldMode::kHeld),       // 11
  };
  out[4].comm = 1;
  out[5].costs.fb = {3};
  out[6].costs.f = {1, 2, 1, 1};
  out[7].group = 6;
  return out;
}

TEST(Registry, PredictionsAreThePublishedClosedForms) {
  // Each schedule's closed forms at the problems above, one line per
  // (schedule, problem) where it predicts anything.
  const std::string expected = R"(
gpipe #0: makespan=33 (M+P-1)(F+B+W) bubble=3/8 (P-1)/M peak=8,8,8,7, M (M-1 on the last device)
gpipe #1: makespan=66 (M+P-1)(F+B+W) bubble=3/8 (P-1)/M peak=8,8,8,8, M
gpipe #2: makespan=27 (M+P-1)(F+B+W) bubble=1/2 (P-1)/M peak=6,6,6,6, M
gpipe #8: makespan=55 (M+P-1)(F+B+W) bubble=3/8 (P-1)/M peak=8,8,8,8, M
1f1b #0: makespan=33 (M+P-1)(F+B+W) bubble=3/8 (P-1)/M peak=4,3,2,0, min(P-d, M) (0 on the last device) span_idle=9 (P-1)(F+B+W)
1f1b #1: makespan=66 (M+P-1)(F+B+W) bubble=3/8 (P-1)/M peak=4,3,2,1, min(P-d, M) span_idle=18 (P-1)(F+B+W)
1f1b #2: makespan=27 (M+P-1)(F+B+W) bubble=1/2 (P-1)/M peak=4,3,2,1, min(P-d, M)
1f1b #8: makespan=55 (M+P-1)(F+B+W) bubble=3/8 (P-1)/M peak=4,3,2,1, min(P-d, M) span_idle=15 (P-1)(F+B+W)
interleaved #0: makespan=33 (vM+P-1)(F+B+W) per chunk bubble=3/8 (P-1)/(vM)
interleaved #1: makespan=66 (vM+P-1)(F+B+W) per chunk bubble=3/8 (P-1)/(vM)
interleaved #2: makespan=27 (vM+P-1)(F+B+W) per chunk bubble=1/2 (P-1)/(vM)
interleaved #3: makespan=57 (vM+P-1)(F+B+W) per chunk bubble=3/16 (P-1)/(vM)
interleaved #5: makespan=145 (vM+P-1)(F+B+W) per chunk bubble=5/24 (P-1)/(vM)
interleaved #7: makespan=57 (vM+P-1)(F+B+W) per chunk bubble=3/16 (P-1)/(vM)
interleaved #8: makespan=55 (vM+P-1)(F+B+W) per chunk bubble=3/8 (P-1)/(vM)
interleaved #9: makespan=75 (vM+P-1)(F+B+W) per chunk bubble=4/21 (P-1)/(vM)
interleaved #10: makespan=45 (vM+P-1)(F+B+W) per chunk bubble=1/4 (P-1)/(vM)
interleaved #11: makespan=42 (vM+P-1)(F+B+W) per chunk bubble=1/6 (P-1)/(vM)
combined-1f1b #0: makespan=33 (vM+P-1)(F+B+W) per chunk bubble=3/8 (P-1)/(vM)
combined-1f1b #1: makespan=66 (vM+P-1)(F+B+W) per chunk bubble=3/8 (P-1)/(vM) peak=8,6,4,2, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #2: makespan=27 (vM+P-1)(F+B+W) per chunk bubble=1/2 (P-1)/(vM) peak=6,6,4,2, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #3: makespan=57 (vM+P-1)(F+B+W) per chunk bubble=3/16 (P-1)/(vM) peak=12,10,8,6, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #7: makespan=57 (vM+P-1)(F+B+W) per chunk bubble=3/16 (P-1)/(vM) peak=14,12,10,8, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #8: makespan=55 (vM+P-1)(F+B+W) per chunk bubble=3/8 (P-1)/(vM) peak=8,6,4,2, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #9: makespan=75 (vM+P-1)(F+B+W) per chunk bubble=4/21 (P-1)/(vM) peak=20,18,16,14,12, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #10: makespan=45 (vM+P-1)(F+B+W) per chunk bubble=1/4 (P-1)/(vM) peak=12,10,8,6, min((v-1)g+2(P-1-d)+2, vM)
combined-1f1b #11: makespan=42 (vM+P-1)(F+B+W) per chunk bubble=1/6 (P-1)/(vM)
zb-h1 #0: span_idle=3 (P-1)(F+B-W)
zb-h1 #1: span_idle=12 (P-1)(F+B-W)
zb-h2 #0: span_idle=0 (P-1)(F+B-2W)
zb-h2 #1: span_idle=9 (P-1)(F+B-2W)
v-half #1: peak_max=6 2⌊(P+2)/2⌋
v-half #2: peak_max=6 2⌊(P+2)/2⌋
v-half #3: peak_max=6 2⌊(P+2)/2⌋
v-half #5: peak_max=8 2⌊(P+2)/2⌋
v-half #8: peak_max=6 2⌊(P+2)/2⌋
v-half #10: peak_max=6 2⌊(P+2)/2⌋
v-min #1: peak_max=4 2⌊(P+4)/3⌋
v-min #2: peak_max=4 2⌊(P+4)/3⌋
v-min #3: peak_max=4 2⌊(P+4)/3⌋
v-min #5: peak_max=6 2⌊(P+4)/3⌋
v-min #8: peak_max=4 2⌊(P+4)/3⌋
v-min #10: peak_max=4 2⌊(P+4)/3⌋
dualpipe #0: device_idle=2 (P/2-1)(F&B+B-3W)
dualpipe #2: device_idle=2 (P/2-1)(F&B+B-3W)
dualpipe #3: device_idle=2 (P/2-1)(F&B+B-3W)
dualpipe #5: device_idle=6 (P/2-1)(F&B+B-3W)
dualpipe #10: device_idle=2 (P/2-1)(F&B+B-3W)
dualpipe #11: device_idle=0 (P/2-1)(F&B+B-3W)
dualpipev #0: device_idle=6 (P-1)(F&B+B-3W)
dualpipev #2: device_idle=6 (P-1)(F&B+B-3W)
dualpipev #3: device_idle=6 (P-1)(F&B+B-3W)
dualpipev #5: device_idle=15 (P-1)(F&B+B-3W)
dualpipev #10: device_idle=6 (P-1)(F&B+B-3W)
dualpipev #11: device_idle=4 (P-1)(F&B+B-3W)
)";
  std::string got = "\n";
  const std::vector<Problem> problems = Problems();
  for (const GeneratorInfo& g : Generators())
    for (size_t i = 0; i < problems.size(); ++i) {
      // On the problem as the run sees it: resolved and scaled to ticks, an
      // unsplit schedule's B being the whole backward B + W.
      std::vector<Problem> one{problems[i]};
      if (ScaleRuns({g.name}, one).code != ErrorCode::kOk) continue;
      const std::string line = Describe(Predict(g.name, one[0]));
      if (!line.empty()) got += g.name + " #" + std::to_string(i) + ":" + line + "\n";
    }
  EXPECT_EQ(got, expected);
  EXPECT_EQ(Describe(Predict("no-such-schedule", problems[0])), "");
}

}  // namespace
}  // namespace ppsim

// The activation series measured in one pass per device (no sort) equals the
// definition computed the slow way: every (m, s)'s held interval as +1/-1
// events, sorted, grouped by tick. Both cluster paths are covered: counting
// by tick (small makespans) and the heap merge (costs of 2^30 ticks).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ppsim/generators.h"
#include "ppsim/memory.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

StepSeries Reference(std::vector<std::pair<Tick, int>> events) {
  std::stable_sort(events.begin(), events.end(), [](auto& a, auto& b) { return a.first < b.first; });
  StepSeries s;
  std::int64_t value = 0;
  for (size_t i = 0; i < events.size();) {
    const Tick tick = events[i].first;
    for (; i < events.size() && events[i].first == tick; ++i) value += events[i].second;
    if (!s.steps.empty() && s.steps.back().second == value) continue;
    s.steps.emplace_back(tick, value);
  }
  return s;
}

void ExpectSameAsDefinition(const Timeline& t, HoldMode hold, const std::string& label) {
  const Problem& p = t.problem;
  std::vector<std::vector<std::pair<Tick, int>>> per(p.P);
  std::vector<std::pair<Tick, int>> all;
  for (int s = 0; s < t.schedule.space.stages(); ++s)
    for (int m = 0; m < p.M; ++m) {
      if (!t.schedule.space.Exists(m, s)) continue;
      const HoldInterval iv = HeldInterval(t, hold, m, s);
      if (iv.to <= iv.from) continue;
      for (auto* v : {&per[p.DeviceOf(s)], &all}) {
        v->push_back({iv.from, +1});
        v->push_back({iv.to, -1});
      }
    }
  const Activations a = MeasureActivations(t, hold);
  ASSERT_EQ(a.per_device.size(), static_cast<size_t>(p.P)) << label;
  for (int d = 0; d < p.P; ++d) {
    const StepSeries ref = Reference(per[d]);
    EXPECT_EQ(a.per_device[d].steps, ref.steps) << label << " device " << d;
    EXPECT_EQ(a.peak_per_device[d], ref.Peak()) << label << " device " << d;
  }
  const StepSeries cluster = Reference(all);
  EXPECT_EQ(a.cluster.steps, cluster.steps) << label;
  EXPECT_EQ(a.peak, cluster.Peak()) << label;
  const Activations peaks_only = MeasureActivations(t, hold, /*series=*/false);
  EXPECT_TRUE(peaks_only.cluster.steps.empty() && peaks_only.per_device.empty()) << label;
  EXPECT_EQ(peaks_only.peak, a.peak) << label;
  EXPECT_EQ(peaks_only.peak_per_device, a.peak_per_device) << label;
}

TEST(Activations, OnePassEqualsSortedDefinitionForEverySchedule) {
  for (const GeneratorInfo& g : Generators())
    for (int P : {1, 2, 4, 6})
      for (int M : {1, 3, 8, 13})
        for (Tick scale : {Tick{1}, Tick{1} << 30}) {  // 2^30: forces the heap merge
          Problem p;
          p.P = P;
          p.M = M;
          p.costs.f = {2 * scale};
          p.costs.b = {3 * scale};
          p.costs.w = {scale};
          p.costs.fb = {4 * scale};
          p.comm = scale;
          Result<Timeline> t = Simulate(g.name, p);
          if (!t.ok()) continue;  // a precondition (e.g. even P)
          for (HoldMode hold : {HoldMode::kHeld, HoldMode::kResident})
            ExpectSameAsDefinition(*t, hold,
                                   g.name + " P=" + std::to_string(P) + " M=" + std::to_string(M) +
                                       " scale=" + std::to_string(scale) + " " + HoldModeName(hold));
        }
}

TEST(Activations, SummaryMetricsDoNotStoreTheSeries) {
  Problem p;
  p.P = 4;
  p.M = 6;
  Result<Timeline> t = Simulate("gpipe", p);
  ASSERT_TRUE(t.ok());
  const Metrics m = Measure(*t, MeasureOptions{.series = false});
  EXPECT_EQ(m.activations.peak, 23);  // the seed's canonical example (docs/semantics.md)
  EXPECT_TRUE(m.activations.cluster.steps.empty());
}

}  // namespace
}  // namespace ppsim

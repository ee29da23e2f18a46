// Test scenes built straight from the core (no scene file): named runs of
// one problem, simulated and measured, ready for Layout().
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/render/layout.h"
#include "render/pango_measurer.h"
#include "ppsim/run.h"
#include "ppsim/simulate.h"

namespace ppsim::render::testing {

struct RunSpec {
  std::string name;
  std::string schedule;
  int v = 1;
};

class Fixture {
 public:
  Fixture(const std::vector<RunSpec>& runs, int P, int M, int width = 1920, int height = 1080) {
    runs_.reserve(runs.size());
    for (const RunSpec& spec : runs) {
      Problem p;
      p.P = P;
      p.M = M;
      p.v = spec.v;
      Result<Timeline> t = Simulate(spec.schedule, p);
      EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
      runs_.push_back(Measured(spec.name, std::move(*t)));
    }
    input.title = "test scene";
    for (const Run& run : runs_) input.runs.push_back({&run, run.name + " caption"});
    input.closing = {"closing line one", "closing line two"};
    // The tests of this folder were written for the cluster gauge;
    // fullest_gauge_test.cc tests the default, the fullest device's.
    input.gauge = GaugeMode::kCluster;
    input.width = width;
    input.height = height;
  }
  const Timeline& timeline(int i) const { return runs_[i].timeline; }
  const Metrics& metrics(int i) const { return runs_[i].metrics; }
  LayoutInput input;

 private:
  std::vector<Run> runs_;
};

inline std::unique_ptr<TextMeasurer> NewMeasurer() {
  Result<std::unique_ptr<TextMeasurer>> m = PangoMeasurer::Create();
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  return std::move(*m);
}

}  // namespace ppsim::render::testing

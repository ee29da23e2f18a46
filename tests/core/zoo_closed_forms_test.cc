// The published closed forms (tests/data/README.md), checked
// over a grid of sizes and costs, each inside its formula's assumptions
// (docs/schedules.md says what happens outside them).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ppsim/closed_forms.h"
#include "ppsim/generators.h"
#include "ppsim/metric_table.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

struct SimRun {
  Timeline timeline;
  Metrics metrics;
};

SimRun Simulated(const std::string& name, Problem p) {
  Result<Timeline> t = Simulate(name, p);
  EXPECT_TRUE(t.ok()) << name << ": " << t.error().message;
  if (!t.ok()) return {};
  Metrics m = Measure(*t);
  return {std::move(*t), std::move(m)};
}

// The published forms are in per-op costs: chunk basis (cost_scale.h), so
// a V-shape run's chunk costs exactly f, b, w ticks.
Problem Sized(int P, int M, Tick f, Tick b, Tick w = 1) {
  Problem p;
  p.cost_basis = CostBasis::kChunk;
  p.P = P;
  p.M = M;
  p.costs.f = {f};
  p.costs.b = {b};
  p.costs.w = {w};
  return p;
}



std::string Label(const char* name, const Problem& p) {
  return std::string(name) + " P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " F=" +
         std::to_string(p.costs.f[0]) + " B=" + std::to_string(p.costs.b[0]) + " W=" + std::to_string(p.costs.w[0]) +
         (p.costs.fb.empty() ? "" : " FB=" + std::to_string(p.costs.fb[0]));
}

// GPipe and 1F1B: makespan (M+P-1)(F+B+W), their backward being whole
// (B + W, W = 1 here), and bubble ratio (P-1)/M.
TEST(ZooClosedForms, GPipeAnd1F1BMakespanAndBubble) {
  for (const char* name : {"gpipe", "1f1b"})
    for (int P = 1; P <= 8; ++P)
      for (int M = 1; M <= 16; ++M)
        for (Tick f : {1, 2, 3})
          for (Tick b : {1, 2, 5}) {
            const Problem p = Sized(P, M, f, b);
            const SimRun r = Simulated(name, p);
            EXPECT_EQ(r.metrics.makespan, (M + P - 1) * (f + b + 1)) << Label(name, p);
            EXPECT_EQ(Rational::Of(r.metrics.idle, r.metrics.busy), Rational::Of(P - 1, M)) << Label(name, p);
          }
}

// Interleaved 1F1B with v chunks, chunk cost = stage cost / v: bubble ratio
// (P-1)/(v·M) (Narayanan et al. 2021), for M a multiple of P.
TEST(ZooClosedForms, InterleavedBubbleIsDividedByV) {
  for (int P = 1; P <= 6; ++P)
    for (int v = 1; v <= 4; ++v)
      for (int M = P; M <= 4 * P; M += P)
        for (Tick chunk : {1, 3}) {
          Problem p = Sized(P, M, chunk, chunk);
          p.v = v;
          const SimRun r = Simulated("interleaved", p);
          EXPECT_EQ(Rational::Of(r.metrics.idle, r.metrics.busy), Rational::Of(P - 1, std::int64_t{v} * M)) << Label("interleaved", p)
                                                                                       << " v=" << v;
        }
}

// Activation peak per device (allocator view): 1F1B P-d microbatches, GPipe M.
TEST(ZooClosedForms, ActivationPeaksPerDevice) {
  for (int P = 1; P <= 8; ++P)
    for (int M = P; M <= 3 * P; ++M) {
      Problem p = Sized(P, M, 1, 2);
      p.hold = HoldMode::kResident;
      const SimRun one = Simulated("1f1b", p);
      const SimRun gpipe = Simulated("gpipe", p);
      for (int d = 0; d < P; ++d) {
        EXPECT_EQ(one.metrics.activations.peak_per_device[d], P - d) << Label("1f1b", p) << " device " << d;
        EXPECT_EQ(gpipe.metrics.activations.peak_per_device[d], M) << Label("gpipe", p) << " device " << d;
      }
    }
}

// Zero Bubble (Qi et al. 2024), per device span, no communication:
//   1F1B (P-1)(T_F+T_B+T_W) (its backward costs T_B+T_W),
//   ZB-H1 (P-1)(T_F+T_B-T_W) for T_W ≤ T_F,
//   ZB-H2 (P-1)(T_F+T_B-2T_W) when that is ≥ 0 and T_W ≤ T_F, for M ≥ 2P-1.
TEST(ZooClosedForms, ZeroBubbleHandcraftedBubbles) {
  for (int P = 1; P <= 8; ++P)
    for (int M = 2 * P - 1; M <= 4 * P; M += 2)
      for (Tick f : {1, 2, 3})
        for (Tick b : {1, 2, 3})
          for (Tick w : {1, 2, 3}) {
            const Problem p = Sized(P, M, f, b, w);
            EXPECT_EQ(Simulated("1f1b", p).metrics.max_span_idle, (P - 1) * (f + b + w))
                << Label("1f1b", p);
            if (w <= f) {
              EXPECT_EQ(Simulated("zb-h1", p).metrics.max_span_idle, (P - 1) * (f + b - w)) << Label("zb-h1", p);
            }
            if (f + b - 2 * w >= 0 && w <= f) {
              EXPECT_EQ(Simulated("zb-h2", p).metrics.max_span_idle, (P - 1) * (f + b - 2 * w)) << Label("zb-h2", p);
            }
          }
}

// Peak activations (allocator view, unit costs): 1F1B and ZB-H1 P
// microbatches, ZB-H2 2P-1.
TEST(ZooClosedForms, ZeroBubbleHandcraftedMemory) {
  for (int P = 1; P <= 8; ++P)
    for (int M = 2 * P - 1; M <= 4 * P; ++M) {
      Problem p = Sized(P, M, 1, 1, 1);
      p.hold = HoldMode::kResident;
      const SimRun h1 = Simulated("zb-h1", p);
      const SimRun h2 = Simulated("zb-h2", p);
      const SimRun one = Simulated("1f1b", p);
      auto peak = [](const SimRun& r) {
        return *std::max_element(r.metrics.activations.peak_per_device.begin(),
                                 r.metrics.activations.peak_per_device.end());
      };
      EXPECT_EQ(peak(one), P) << Label("1f1b", p);
      EXPECT_EQ(peak(h1), P) << Label("zb-h1", p);
      EXPECT_EQ(peak(h2), 2 * P - 1) << Label("zb-h2", p);
    }
}

// DualPipe (DeepSeek): bubble (PP/2-1)(F&B+B-3W) with B the full backward
// and F&B the overlapped pair — ppsim's BW (= B + W) and FB. Measured as the
// largest idle time of one device over the makespan. It holds exactly when
// F = B (input pass), W ≤ F and the pair takes from F + W (all but W hidden)
// to F + BW (no overlap benefit, the default); docs/schedules.md shows what
// ppsim measures elsewhere.
// DualPipeV is the same on PP/2 devices.
TEST(ZooClosedForms, DualPipeBubble) {
  for (const char* name : {"dualpipe", "dualpipev"})
    for (int P = 2; P <= 12; P += 2)
      for (int M = 2 * P; M <= 4 * P; M += 2)
        for (Tick c : {1, 2, 4})
          for (Tick w = 1; w <= c; ++w)
            for (Tick fb : {c + w, c + c / 2 + w, c + c + w}) {
              Problem p = Sized(P, M, c, c, w);
              p.costs.fb = {fb};
              const Tick full_b = c + w;
              const int pairs = std::string(name) == "dualpipe" ? P / 2 : P;  // PP/2
              EXPECT_EQ(Simulated(name, p).metrics.max_device_idle, (pairs - 1) * (fb + full_b - 3 * w))
                  << Label(name, p);
            }
}

// DualPipe activations: PP+1 microbatches per device (allocator view, unit
// costs); DualPipeV the same on PP/2 devices, i.e. 2P+1 on P devices.
TEST(ZooClosedForms, DualPipeActivations) {
  for (const char* name : {"dualpipe", "dualpipev"})
    for (int P = 2; P <= 12; P += 2)
      for (int M = 2 * P; M <= 4 * P; M += 2) {
        Problem p = Sized(P, M, 1, 1, 1);
        p.hold = HoldMode::kResident;
        const SimRun r = Simulated(name, p);
        const int pp = std::string(name) == "dualpipe" ? P : 2 * P;
        const std::int64_t peak = *std::max_element(r.metrics.activations.peak_per_device.begin(),
                                                    r.metrics.activations.peak_per_device.end());
        EXPECT_EQ(peak, pp + 1) << Label(name, p);
      }
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// What `compare` prints beside the zoo's runs agrees with the simulation
// wherever it predicts anything.
TEST(ZooClosedForms, PredictionsMatchWhereGiven) {
  int predicted = 0;
  for (const char* name : {"1f1b", "zb-h1", "zb-h2", "dualpipe", "dualpipev"})
    for (int P = 2; P <= 6; P += 2)
      for (int M = 2 * P; M <= 3 * P; M += 2)
        for (Tick f : {1, 2})
          for (Tick b : {1, 2})
            for (Tick w : {1, 2}) {
              Problem p = Sized(P, M, f, b, w);
              p.costs.fb = {f + w};
              Result<Timeline> t = Simulate(name, p);
              ASSERT_TRUE(t.ok());
              const Metrics m = Measure(*t);
              const Prediction pr = Predict(name, t->problem);
              if (const PredictedMetric* form = pr.Find("max_span_idle")) {
                EXPECT_EQ(form->value, Rational(m.max_span_idle)) << Label(name, p);
                ++predicted;
              }
              if (const PredictedMetric* form = pr.Find("max_device_idle")) {
                EXPECT_EQ(form->value, Rational(m.max_device_idle)) << Label(name, p);
                ++predicted;
              }
            }
  EXPECT_GT(predicted, 100);
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// Each whole-run form a schedule publishes is keyed by its metric's row
// (Prediction::forms) and equals what the metric table measures, for every
// registry schedule that has forms, on a grid where their conditions hold.
TEST(ZooClosedForms, EveryFormIsItsMetricByName) {
  int checked = 0;
  for (const GeneratorInfo& g : Generators())
    for (int P : {2, 4})
      for (int M : {2 * P, 4 * P}) {
        Problem p = Sized(P, M, 1, 1, 1);
        p.costs.fb = {2};
        if (g.fixed_chunks == 0) p.v = 2;
        Result<Timeline> t = Simulate(g.name, p);
        if (!t.ok()) continue;  // outside the schedule's conditions
        const Metrics m = Measure(*t);
        for (const PredictedMetric& form : Predict(g.name, t->problem).forms) {
          EXPECT_EQ(FindMetric(form.metric->name), form.metric) << g.name << ": " << form.metric->name;
          EXPECT_EQ(form.metric->value(m, t->problem, -1), form.value)
              << Label(g.name.c_str(), p) << " " << form.metric->name;
          ++checked;
        }
      }
  EXPECT_GT(checked, 40);
}

}  // namespace
}  // namespace ppsim

// Counterexample search throughput: grid points per second for the
// GPipe-vs-1F1B scene (load, simulate both runs, check three claims), on one
// thread and on every core; and claim evaluation alone.
// Goal (issue 14): >= 10^4 points/s for P <= 8, M <= 16. "points/s" is per
// wall second, "points/CPU-s" per second of the process's CPU time (all
// threads): on a shared, loaded machine only the second is reproducible.
#include <benchmark/benchmark.h>

#include <ctime>

#include "ppsim/io/atomic_file.h"
#include "ppsim/claims.h"
#include "ppsim/scene/scene.h"
#include "ppsim/scene/sweep.h"

namespace {

const std::string kScene = std::string(PPSIM_BENCH_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";

double ProcessCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void BM_Sweep(benchmark::State& state) {
  const std::string text = *ppsim::io::ReadFile(kScene);
  const std::vector<ppsim::scene::SweepAxis> axes{*ppsim::scene::ParseSweepAxis("P=1..8"), *ppsim::scene::ParseSweepAxis("M=1..16")};
  std::int64_t points = 0;
  const double cpu0 = ProcessCpuSeconds();
  for (auto _ : state) {
    ppsim::Result<ppsim::scene::SweepResult> r = ppsim::scene::Sweep(text, kScene, {}, axes, static_cast<int>(state.range(0)));
    points += r->tried + r->skipped;
    benchmark::DoNotOptimize(r);
  }
  const double cpu = ProcessCpuSeconds() - cpu0;
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
  state.counters["points/CPU-s"] = static_cast<double>(points) / cpu;
}
BENCHMARK(BM_Sweep)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same 128 points the way a sweep ran before it parsed once (issue 9,
// item 4): each point loads the scene text again with its --set values
// (LoadSceneText parses the TOML and checks claims and templates), simulates
// it, and evaluates the claims from their text. One thread; compare its
// points/CPU-s with BM_Sweep/1's.
void BM_SweepReparsingEachPoint(benchmark::State& state) {
  const std::string text = *ppsim::io::ReadFile(kScene);
  std::int64_t points = 0;
  const double cpu0 = ProcessCpuSeconds();
  for (auto _ : state) {
    for (int p = 1; p <= 8; ++p)
      for (int m = 1; m <= 16; ++m) {
        ppsim::Result<ppsim::scene::Scene> scene =
            ppsim::scene::LoadSceneText(text, kScene, {"P=" + std::to_string(p), "M=" + std::to_string(m)});
        ppsim::Result<std::vector<ppsim::Run>> runs =
            ppsim::scene::SimulateScene(*scene, ppsim::MeasureOptions{.series = false});
        if (runs.ok()) benchmark::DoNotOptimize(ppsim::scene::CheckSceneClaims(*scene, *runs));
        ++points;
      }
  }
  const double cpu = ProcessCpuSeconds() - cpu0;
  state.counters["points/s"] = benchmark::Counter(static_cast<double>(points), benchmark::Counter::kIsRate);
  state.counters["points/CPU-s"] = static_cast<double>(points) / cpu;
}
BENCHMARK(BM_SweepReparsingEachPoint)->Unit(benchmark::kMillisecond)->UseRealTime();

// One claim evaluated on runs already simulated. Goal: >= 10^5 claims/s, so
// the claims stay a small share of a sweep point (BM_Sweep).
void BM_CheckClaim(benchmark::State& state) {
  ppsim::Result<ppsim::scene::Scene> scene = ppsim::scene::LoadScene(kScene);
  ppsim::Result<std::vector<ppsim::Run>> runs = ppsim::scene::SimulateScene(*scene);
  std::int64_t n = 0;
  for (auto _ : state) {
    auto r = ppsim::CheckClaim("bubble_ratio(GPipe) == (P-1)/M and peak(GPipe) > peak(1F1B)", *runs, scene->params);
    benchmark::DoNotOptimize(r);
    ++n;
  }
  state.counters["claims/s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CheckClaim);

}  // namespace

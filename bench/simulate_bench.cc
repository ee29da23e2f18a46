// ppsim::Simulate (generate + place into fresh memory) — what one call of
// `ppsim simulate` or Python's ppsim.simulate() costs; scripts/python_bench.sh
// sets the Python call's time beside it.
// Goal: the Python call costs no more CPU than this (docs/python.md), and this
// stays within 2x of placement on fresh memory (BM_PlaceFresh in placement_bench).
#include <benchmark/benchmark.h>

#include "ppsim/simulate.h"

namespace {

void BM_Simulate1F1B_P64_M16384(benchmark::State& state) {
  ppsim::Problem p;
  p.P = 64;
  p.M = 16384;
  for (auto _ : state) {
    ppsim::Result<ppsim::Timeline> t = ppsim::Simulate("1f1b", p);
    if (!t.ok()) state.SkipWithError(t.error().message.c_str());
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations() * 2 * std::int64_t{64} * 16384);  // F and B of every (m, s)
}

BENCHMARK(BM_Simulate1F1B_P64_M16384)->Unit(benchmark::kMillisecond);

}  // namespace

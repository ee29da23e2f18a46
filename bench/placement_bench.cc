// Placement throughput in ops/s (items_per_second). Goal: >= 100 M ops/s on
// one core, linear in the number of ops. The timeline's buffers are reused
// across iterations (PlaceInto), as a sweep does; BM_PlaceFresh shows the
// cost of first touching fresh memory. Large blocks come in huge pages, as in
// `ppsim` (tools/ppsim/huge_pages.cc is linked in, bench/CMakeLists.txt).
#include <benchmark/benchmark.h>

#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace {

void PlaceBench(benchmark::State& state, const char* name, int P, int v, int M) {
  ppsim::Problem p;
  p.P = P;
  p.v = v;
  p.M = M;
  ppsim::Result<ppsim::Schedule> s = ppsim::Generate(name, p);
  if (!s.ok()) {
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  const std::int64_t ops = s->op_count();
  ppsim::Schedule schedule = std::move(*s);
  ppsim::Timeline t;
  for (auto _ : state) {
    ppsim::Error e = ppsim::PlaceInto(p, std::move(schedule), t);
    benchmark::DoNotOptimize(t.makespan);
    schedule = std::move(t.schedule);
    if (e.code != ppsim::ErrorCode::kOk) state.SkipWithError(e.message.c_str());
  }
  state.SetItemsProcessed(state.iterations() * ops);
  state.counters["ops"] = static_cast<double>(ops);
}

void BM_Place1F1B_P64_M16384(benchmark::State& state) { PlaceBench(state, "1f1b", 64, 1, 16384); }
void BM_PlaceInterleaved_P64_v4_M4096(benchmark::State& state) { PlaceBench(state, "interleaved", 64, 4, 4096); }
void BM_Place1F1B_Scaling(benchmark::State& state) { PlaceBench(state, "1f1b", 64, 1, static_cast<int>(state.range(0))); }

void PlaceFreshBench(benchmark::State& state, int M) {
  ppsim::Problem p;
  p.P = 64;
  p.M = M;
  ppsim::Result<ppsim::Schedule> s = ppsim::Generate("1f1b", p);
  for (auto _ : state) {
    ppsim::Result<ppsim::Timeline> t = ppsim::Place(p, *s);
    benchmark::DoNotOptimize(t.value().makespan);
  }
  state.SetItemsProcessed(state.iterations() * s->op_count());
}

void BM_PlaceFresh1F1B_P64_M16384(benchmark::State& state) { PlaceFreshBench(state, 16384); }
// The problem of scripts/bench.sh's end-to-end `ppsim simulate -s 1f1b -P 64
// -M 65536` (8.4 M ops), placed into fresh memory as that run places it:
// bench.sh prints the end-to-end run's CPU time over this one's.
void BM_PlaceFresh1F1B_P64_M65536(benchmark::State& state) { PlaceFreshBench(state, 65536); }

void BM_PlaceZBV_P64_M4096(benchmark::State& state) { PlaceBench(state, "zbv", 64, 2, 4096); }
void BM_PlaceDualPipe_P64_M4096(benchmark::State& state) { PlaceBench(state, "dualpipe", 64, 2, 4096); }

BENCHMARK(BM_Place1F1B_P64_M16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceInterleaved_P64_v4_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Place1F1B_Scaling)->RangeMultiplier(4)->Range(256, 16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceZBV_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceDualPipe_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceFresh1F1B_P64_M16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceFresh1F1B_P64_M65536)->Unit(benchmark::kMillisecond);

}  // namespace

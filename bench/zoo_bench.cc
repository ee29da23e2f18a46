// The zoo's generators in ops/s (items_per_second): each order is built in
// O(ops) (zb-h2's unit-cost construction in O(P · ticks)). Their placement is
// in placement_bench.cc.
// Goal: building an order costs no more per op than placing it on fresh
// memory (BM_PlaceFresh1F1B_P64_M16384 in placement_bench), so generation
// never dominates a simulate.
#include <benchmark/benchmark.h>

#include "ppsim/generators.h"

namespace {

void GenerateBench(benchmark::State& state, const char* name, int P, int M, int v = 1) {
  std::int64_t ops = 0;
  for (auto _ : state) {
    ppsim::Problem p;
    p.P = P;
    p.M = M;
    p.v = v;
    ppsim::Result<ppsim::Schedule> s = ppsim::Generate(name, p);
    if (!s.ok()) {
      state.SkipWithError(s.error().message.c_str());
      return;
    }
    ops = s->op_count();
    benchmark::DoNotOptimize(s->devices.data());
  }
  state.SetItemsProcessed(state.iterations() * ops);
  state.counters["ops"] = static_cast<double>(ops);
}

void BM_GenerateZBH1_P64_M4096(benchmark::State& s) { GenerateBench(s, "zb-h1", 64, 4096); }
void BM_GenerateZBH2_P64_M4096(benchmark::State& s) { GenerateBench(s, "zb-h2", 64, 4096); }
void BM_GenerateZB1P_P64_v2_M4096(benchmark::State& s) { GenerateBench(s, "zb1p", 64, 4096, 2); }
void BM_GenerateZBV_P64_M4096(benchmark::State& s) { GenerateBench(s, "zbv", 64, 4096); }
void BM_GenerateDualPipe_P64_M4096(benchmark::State& s) { GenerateBench(s, "dualpipe", 64, 4096); }
void BM_GenerateDualPipeV_P64_M4096(benchmark::State& s) { GenerateBench(s, "dualpipev", 64, 4096); }

}  // namespace

BENCHMARK(BM_GenerateZBH1_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateZBH2_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateZB1P_P64_v2_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateZBV_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateDualPipe_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenerateDualPipeV_P64_M4096)->Unit(benchmark::kMillisecond);

// Search throughput: candidate orders evaluated per second
// (items_per_second; each one a budget check and a placement), on the
// sizes of docs/search.md's table. Each iteration is one whole search
// stopped after a fixed number of candidates.
// Goal: >= 10^5 candidates per CPU-second up to P = 8, M = 24 (docs/search.md's
// table), so a search of 10^6 candidates finishes within a minute.
#include <benchmark/benchmark.h>

#include "ppsim/search.h"

namespace {

// `comms`: placed with PyTorch's lowering, `comm` ticks a transfer, instead
// of the latency model.
void SearchBench(benchmark::State& state, int P, int M, ppsim::Tick comm, bool comms = false) {
  ppsim::Problem p;
  p.P = P;
  p.M = M;
  p.costs.f = {2};
  p.costs.b = {2};
  p.costs.w = {1};
  p.comm = comm;
  if (comms) {
    p.comm = 0;
    p.comms.order = ppsim::CommOrder::kPytorch;
    p.comms.latency = comm;
  }
  ppsim::SearchOptions o;
  o.max_activations = P;
  o.time_limit_seconds = 60;
  o.max_evaluations = 20'000;
  o.exact_max_ops = 0;
  std::int64_t evaluated = 0;
  for (auto _ : state) {
    ppsim::Result<ppsim::SearchResult> r = ppsim::Search(p, o);
    if (!r.ok()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    evaluated += r->evaluated;
    benchmark::DoNotOptimize(r->timeline.makespan);
  }
  state.SetItemsProcessed(evaluated);
  state.counters["ops"] = static_cast<double>(3 * P * M);
}

void BM_Search_P4_M8(benchmark::State& state) { SearchBench(state, 4, 8, 1); }
void BM_Search_P8_M24(benchmark::State& state) { SearchBench(state, 8, 24, 1); }
void BM_Search_Comms_P4_M8(benchmark::State& state) { SearchBench(state, 4, 8, 1, true); }
void BM_Search_Comms_P8_M24(benchmark::State& state) { SearchBench(state, 8, 24, 1, true); }

BENCHMARK(BM_Search_P4_M8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Search_P8_M24)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Search_Comms_P4_M8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Search_Comms_P8_M24)->Unit(benchmark::kMillisecond);

}  // namespace

// The split search's growth with layers × P (docs/search.md, "Splitting a
// model"): one whole SearchSplits per iteration on a model of L decoder
// layers of three sizes in turn (F = 3, 4, 5) between an embedding (F = 8)
// and a loss head (F = 12), P devices, M = 2P
// microbatches, loop placement with one chunk, every split's order search
// stopped after 500 candidates and the family enumerated up to 3,000
// splits (beyond, seeds and one-layer moves). Counters: splits (how many
// the family has), considered, searched (order searches run).
#include <benchmark/benchmark.h>

#include "ppsim/split_search.h"

namespace {

ppsim::Model Uneven(int layers) {
  ppsim::Model m;
  m.layers.push_back({'E', "", 8, 8, 8, 0, 1 << 20, 0, false});
  for (int i = 0; i < layers; ++i) {
    const ppsim::Tick f = 3 + i % 3;
    m.layers.push_back({'t', "", f, f + 1, f, 1 << 20, 1 << 22, 0, false});
  }
  m.layers.push_back({'L', "", 12, 12, 12, 1 << 20, 1 << 20, 0, false});
  return m;
}

void BM_SplitSearch(benchmark::State& state) {
  const int layers = static_cast<int>(state.range(0)), P = static_cast<int>(state.range(1));
  const ppsim::Model m = Uneven(layers);
  ppsim::SplitSearchOptions o;
  o.P = P;
  o.M = 2 * P;
  o.comm = 1;
  o.memory_limit = std::int64_t{1} << 40;
  o.chunks = {1};
  o.vshape = false;
  o.evaluations_per_split = 500;
  o.time_limit_seconds = 600;
  ppsim::SplitSearchResult last;
  for (auto _ : state) {
    ppsim::Result<ppsim::SplitSearchResult> r = ppsim::SearchSplits(m, o);
    if (!r.ok()) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r->order.timeline.makespan);
    last = std::move(*r);
  }
  state.counters["splits"] = static_cast<double>(last.families[0].splits);
  state.counters["considered"] = static_cast<double>(last.splits_considered);
  state.counters["searched"] = static_cast<double>(last.splits_searched);
}

BENCHMARK(BM_SplitSearch)
    ->ArgsProduct({{8, 16, 32, 64}, {2, 4, 8}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

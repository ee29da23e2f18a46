// The bound placement is measured against (docs/performance.md): a gather
// over the same bytes placement touches — each op's slot in queue order
// (sequential) and its dependency's end tick (scattered), one store of its
// own end — with no decoding, no parking and no branches on readiness.
// Fresh: the end array is new memory each iteration, so first-touch page
// faults are in the loop, as in Place(); warm: reused, as in PlaceInto().
// Goal: BM_Place*_10M within 2x of BM_Gather*_10M (same freshness).
#include <benchmark/benchmark.h>

#include <memory>

#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace {

constexpr int kP = 64;
constexpr int kM = 78125;  // 2 * 64 * 78125 = 10^7 ops

struct Work {
  ppsim::Problem problem;
  ppsim::Schedule schedule;
  std::vector<std::pair<ppsim::OpId, ppsim::OpId>> pairs;  // (op, its dependency), queue order
  std::int64_t ids = 0;
};

const Work& TenMillion() {
  static const Work work = [] {
    Work w;
    w.problem.P = kP;
    w.problem.M = kM;
    w.schedule = *ppsim::Generate("1f1b", w.problem);
    w.ids = w.schedule.space.size();
    for (const auto& queue : w.schedule.devices)
      for (const ppsim::Slot& s : queue) {
        const ppsim::OpId dep = ppsim::DependencyOf(w.schedule.space, false, s.op);
        w.pairs.push_back({s.op, dep == ppsim::kNoOp ? s.op : dep});
      }
    return w;
  }();
  return work;
}

void Gather(benchmark::State& state, bool fresh) {
  const Work& w = TenMillion();
  std::unique_ptr<ppsim::Tick[]> warm(new ppsim::Tick[w.ids]());
  for (auto _ : state) {
    std::unique_ptr<ppsim::Tick[]> owned(fresh ? new ppsim::Tick[w.ids] : nullptr);  // untouched pages
    ppsim::Tick* end = fresh ? owned.get() : warm.get();
    ppsim::Tick now = 0;
    for (const auto& [op, dep] : w.pairs) now = end[op] = std::max(now, end[dep]) + 1;
    benchmark::DoNotOptimize(now);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(w.pairs.size()));
}

void Place(benchmark::State& state, bool fresh) {
  const Work& w = TenMillion();
  ppsim::Schedule schedule = w.schedule;
  ppsim::Timeline t;
  if (!fresh) {  // warm: the buffers exist and were touched before the first timed run, as Gather's
    (void)ppsim::PlaceInto(w.problem, std::move(schedule), t);
    schedule = std::move(t.schedule);
  }
  for (auto _ : state) {
    if (fresh) t = ppsim::Timeline{};  // new buffers: first touch inside the loop
    ppsim::Error e = ppsim::PlaceInto(w.problem, std::move(schedule), t);
    benchmark::DoNotOptimize(t.makespan);
    schedule = std::move(t.schedule);
    if (e.code != ppsim::ErrorCode::kOk) state.SkipWithError(e.message.c_str());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(w.pairs.size()));
}

void BM_GatherWarm_10M(benchmark::State& state) { Gather(state, false); }
void BM_GatherFresh_10M(benchmark::State& state) { Gather(state, true); }
void BM_PlaceWarm_10M(benchmark::State& state) { Place(state, false); }
void BM_PlaceFresh_10M(benchmark::State& state) { Place(state, true); }

BENCHMARK(BM_GatherWarm_10M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GatherFresh_10M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceWarm_10M)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceFresh_10M)->Unit(benchmark::kMillisecond);

}  // namespace

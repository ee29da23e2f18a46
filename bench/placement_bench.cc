// Placement throughput in ops/s (items_per_second). Goal: >= 100 M ops/s on
// one core, linear in the number of ops. The timeline's buffers are reused
// across iterations (PlaceInto), as a sweep does; BM_PlaceFresh shows the
// cost of first touching fresh memory. Large blocks come in huge pages, as in
// `ppsim` (tools/ppsim/huge_pages.cc is linked in, bench/CMakeLists.txt).
//
// The graph path (op_graph.h), for ops with several dependencies: the same
// 1F1B P=64 M=16384 placed over an OpGraph of its chain (BM_PlaceGraph...,
// so its ratio to BM_Place1F1B_P64_M16384 in one run is the price of the
// general form), and Seq1F1B with 4 slices through PlaceInto, graph built
// each time (counted in ops).
//
// Communication as ops (comm_run.h): interleaved P=64 v=4 M=4096 lowered by
// PyTorch's rule (LowerPytorch, outside the timed loop) and placed with its
// SEND/RECV/UNSHARD/RESHARD/REDUCE_GRAD actions on their links
// (RunCommsInto, its buffers reused as PlaceInto's are), counted in every
// action placed, compute and comm. Goal (issue 25): >= 30 M ops/s.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ppsim/comm_lowering.h"
#include "ppsim/comm_run.h"
#include "ppsim/generators.h"
#include "ppsim/op_graph.h"
#include "ppsim/placement.h"
#include "ppsim/slices.h"

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

// 1F1B's own chain as a graph: every op's one dependency (DependencyOf)
// with its latency class, durations from the costs.
void BM_PlaceGraph1F1B_P64_M16384(benchmark::State& state) {
  ppsim::Problem p;
  p.P = 64;
  p.M = 16384;
  ppsim::Result<ppsim::Schedule> s = ppsim::Generate("1f1b", p);
  const ppsim::OpSpace space = s->space;
  ppsim::OpGraph g;
  g.Reset(2 * std::int64_t{space.stages()} * space.microbatches());
  for (int d = 0; d < p.P; ++d)
    for (const ppsim::Slot& slot : s->devices[d]) {
      g.device[slot.op] = d;
      g.duration[slot.op] = p.costs.Of(space.At(slot.op).kind, space.At(slot.op).stage);
    }
  for (ppsim::OpId id = 0; id < static_cast<ppsim::OpId>(g.ids()); ++id) {
    const ppsim::OpId dep = ppsim::DependencyOf(space, false, id);
    if (dep != ppsim::kNoOp) g.Add(id, dep, 0);
  }
  g.Seal();
  std::vector<ppsim::Tick> end(g.ids()), start(g.ids());
  for (auto _ : state) {
    std::fill(end.begin(), end.end(), -1);
    ppsim::Result<ppsim::Tick> m =
        ppsim::PlaceGraph(g, s->devices, end.data(), start.data(), [](ppsim::OpId) { return std::string(); });
    benchmark::DoNotOptimize(m.ok());
  }
  state.SetItemsProcessed(state.iterations() * s->op_count());
  state.counters["deps"] = static_cast<double>(g.deps.size());
}

// Seq1F1B, 4 slices: every op waits on the same slice's previous stage and
// on the previous slice of its stage; the graph is built in every run.
void BM_PlaceSeq1F1B_P64_M4096_K4(benchmark::State& state) {
  ppsim::Problem p;
  p.P = 64;
  p.M = 4096;
  p.slices = 4;
  ppsim::Result<ppsim::Schedule> s = ppsim::Generate("seq1f1b", p);
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
}

void BM_PlaceComms_Interleaved_P64_v4_M4096(benchmark::State& state) {
  ppsim::Problem p;
  p.P = 64;
  p.v = 4;
  p.M = 4096;
  p.comms.order = ppsim::CommOrder::kPytorch;
  p.comms.latency = 1;
  ppsim::Result<ppsim::Schedule> s = ppsim::Generate("interleaved", p);
  if (!s.ok()) {
    state.SkipWithError(s.error().message.c_str());
    return;
  }
  ppsim::Result<ppsim::CommProgram> program = ppsim::LowerPytorch(p, *s);
  if (!program.ok()) {
    state.SkipWithError(program.error().message.c_str());
    return;
  }
  ppsim::CommScratch scratch;
  ppsim::CommRun run;
  ppsim::Schedule schedule = *s;
  // One placement before timing: the buffers are then warm, as in a sweep's
  // second placement (one takes over a second, so the loop runs few).
  if (ppsim::RunCommsInto(p, std::move(schedule), *program, p.comms, scratch, run).ok())
    schedule = std::move(run.timeline.schedule);
  for (auto _ : state) {
    ppsim::Error e = ppsim::RunCommsInto(p, std::move(schedule), *program, p.comms, scratch, run);
    if (!e.ok()) {
      state.SkipWithError(e.message.c_str());
      break;
    }
    benchmark::DoNotOptimize(run.timeline.makespan);
    schedule = std::move(run.timeline.schedule);
  }
  state.SetItemsProcessed(state.iterations() * program->action_count());
  state.counters["ops"] = static_cast<double>(program->action_count());
}

void BM_PlaceZBV_P64_M4096(benchmark::State& state) { PlaceBench(state, "zbv", 64, 2, 4096); }
void BM_PlaceDualPipe_P64_M4096(benchmark::State& state) { PlaceBench(state, "dualpipe", 64, 2, 4096); }

BENCHMARK(BM_Place1F1B_P64_M16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceGraph1F1B_P64_M16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceSeq1F1B_P64_M4096_K4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceInterleaved_P64_v4_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Place1F1B_Scaling)->RangeMultiplier(4)->Range(256, 16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceComms_Interleaved_P64_v4_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceZBV_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceDualPipe_P64_M4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceFresh1F1B_P64_M16384)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceFresh1F1B_P64_M65536)->Unit(benchmark::kMillisecond);

}  // namespace

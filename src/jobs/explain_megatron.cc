// `ppsim explain` of a Megatron-LM timers log (io/megatron_log.h): each
// rank's time per step in forward-compute, backward-compute, the p2p calls
// and forward-backward. The log has no per-op times, so it gives each
// stage's mean costs only: F = forward-compute / (v·M) per chunk, B =
// backward-compute / (v·M) (a full backward: backward_step runs both
// gradients). The order is Megatron's (1F1B, interleaved when v > 1),
// placed by ppsim; the three runs are
//   measured: forward-backward less the gradient syncs in it, the slowest
//             rank's, with each rank's busy time forward-compute +
//             backward-compute;
//   replay:   Megatron's order placed on the mean costs, no latency;
//   ideal:    the same with the stragglers' factor taken out.
// Timers wrap each call with torch.cuda.synchronize() (timers.py,
// Timer.start/stop), so a p2p timer holds the rank's wait for its peer as
// well as the transfer: the p2p time beyond the replay's idle on that rank
// is communication the schedule does not explain ("exposed").
#include <algorithm>
#include <cstdio>

#include "explain_internal.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/megatron_log.h"

namespace ppsim::jobs::explain {
namespace {

// The p2p timers of megatron/core/pipeline_parallel/p2p_communication.py.
constexpr const char* kP2p[] = {"forward-recv",
                                "forward-send",
                                "backward-recv",
                                "backward-send",
                                "forward-send-forward-recv",
                                "forward-send-backward-recv",
                                "backward-send-forward-recv",
                                "backward-send-backward-recv",
                                "forward-backward-send-forward-backward-recv"};

// The gradient syncs finalize_model_grads runs inside forward-backward
// (megatron/core/distributed/finalize_model_grads.py) that training.py's
// timers_to_log prints (layernorm-grads-all-reduce: older Megatron). The
// first starts with a barrier across all ranks (barrier_with_L1_time,
// default True), so every rank's forward-backward also holds its wait for
// the slowest: forward-backward less these ends, on every rank, about where
// the slowest rank's pipeline ends (the syncs Megatron does not print, as
// non-tensor-parallel-grads-all-reduce, stay in it).
constexpr const char* kGradSync[] = {"all-grads-sync", "embedding-grads-all-reduce", "layernorm-grads-all-reduce"};

// Per pipeline rank, the slowest member's figures (its tensor-, context- and
// data-parallel peers wait on it at their collectives).
struct RankFigures {
  std::vector<Tick> forward, backward, pipeline, sync, p2p;  // pipeline: forward-backward - sync
};

std::string Us(Tick ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f µs", static_cast<double>(ns) / 1000.0);
  return buf;
}

// A timer's ns per world rank (0 where Megatron printed none); an error for
// a `required` timer missing or without a rank, or a rank past the world.
Result<std::vector<Tick>> TimerOf(const io::MegatronLog& log, int world, const char* name, bool required) {
  const std::string shown = io::DisplayPath(log.file);
  const auto it = log.timers.by_name.find(name);
  if (it == log.timers.by_name.end()) {
    if (!required) return std::vector<Tick>(world, 0);
    return Fail(ErrorCode::kParse, shown + ":" + std::to_string(log.timers.line) + ": the timers block has no " + name +
                                       " (Megatron's --timing-log-level 2 prints it)");
  }
  const std::string at = shown + ":" + std::to_string(log.timers.name_line.at(name)) + ": " + name + ": rank ";
  const std::vector<Tick>& ns = it->second;
  if (static_cast<int>(ns.size()) > world)
    return Fail(ErrorCode::kInvalidValue,
                at + std::to_string(ns.size() - 1) + " but world_size " + std::to_string(world));
  std::vector<Tick> out(world, 0);
  for (int w = 0; w < world; ++w) {
    const Tick t = w < static_cast<int>(ns.size()) ? ns[w] : -1;
    if (t < 0 && required)
      return Fail(ErrorCode::kInvalidValue,
                  at + std::to_string(w) + " missing (world ranks 0.." + std::to_string(world - 1) + " expected)");
    out[w] = std::max<Tick>(t, 0);
  }
  return out;
}

Result<RankFigures> PerRank(const io::MegatronLog& log, int world) {
  const io::MegatronArgs& a = log.args;
  auto pp_rank = [&](int w) { return a.tp_pp_dp ? (w / (a.tp * a.cp)) % a.P : w / (a.tp * a.cp * a.dp); };
  std::vector<Tick> fwd, bwd, step, sync(world, 0), p2p(world, 0);
  for (auto [name, into] : {std::pair{"forward-compute", &fwd}, std::pair{"backward-compute", &bwd},
                            std::pair{"forward-backward", &step}}) {
    Result<std::vector<Tick>> t = TimerOf(log, world, name, true);
    if (!t) return t.error();
    *into = std::move(*t);
  }
  auto add = [&](const char* name, std::vector<Tick>& into) -> Error {
    Result<std::vector<Tick>> t = TimerOf(log, world, name, false);
    if (!t) return t.error();
    for (int w = 0; w < world; ++w) into[w] += (*t)[w];
    return Error::Ok();
  };
  for (const char* name : kGradSync)
    if (Error e = add(name, sync); !e.ok()) return e;
  for (const char* name : kP2p)
    if (Error e = add(name, p2p); !e.ok()) return e;
  RankFigures f;
  for (auto* v : {&f.forward, &f.backward, &f.pipeline, &f.sync, &f.p2p}) v->assign(a.P, 0);
  for (int w = 0; w < world; ++w) {
    const int k = pp_rank(w);
    f.forward[k] = std::max(f.forward[k], fwd[w]);
    f.backward[k] = std::max(f.backward[k], bwd[w]);
    f.pipeline[k] = std::max(f.pipeline[k], step[w] - sync[w]);
    f.sync[k] = std::max(f.sync[k], sync[w]);
    f.p2p[k] = std::max(f.p2p[k], p2p[w]);
  }
  return f;
}

// P, v, M and the world from the arguments; errors name the block's line.
Result<int> CheckShape(const io::MegatronLog& log) {
  const io::MegatronArgs& a = log.args;
  const std::string at = io::DisplayPath(log.file) + ":" + std::to_string(a.line) + ": ";
  const std::int64_t world = std::int64_t{a.tp} * a.cp * a.P * a.dp;
  if (world > kMaxDevices * std::int64_t{1024})
    return Fail(ErrorCode::kTooLarge, at + "world of " + std::to_string(world) + " ranks is past the limits");
  if (a.world_size != 0 && a.world_size != world)
    return Fail(ErrorCode::kInvalidValue,
                at + "world_size " + std::to_string(a.world_size) +
                    " is not tensor × context × pipeline × data parallel = " + std::to_string(world));
  if (a.global_batch % (a.micro_batch * a.dp) != 0)
    return Fail(ErrorCode::kInvalidValue, at + "global_batch_size " + std::to_string(a.global_batch) +
                                              " is not a multiple of micro_batch_size × data_parallel_size");
  return static_cast<int>(world);
}

// Megatron's order on the log's shape: ppsim's 1f1b, or interleaved with
// Megatron's microbatch_group_size_per_vp_stage (default P).
Result<Pipeline> MegatronPipeline(const io::MegatronArgs& a) {
  Pipeline pl;
  Problem& p = pl.problem;
  p.P = a.P;
  p.v = a.v;
  const std::int64_t M = a.global_batch / (a.micro_batch * a.dp);
  if (M > kMaxMicrobatches || a.P > kMaxDevices || a.v > kMaxChunks)
    return Fail(ErrorCode::kTooLarge, "P " + std::to_string(a.P) + ", v " + std::to_string(a.v) + ", M " +
                                          std::to_string(M) + ": past the limits (docs/reliability.md)");
  p.M = static_cast<int>(M);
  p.group = a.v > 1 ? (a.group > 0 ? a.group : a.P) : 0;
  Problem gen = p;
  Result<Schedule> order = Generate(a.v > 1 ? "interleaved" : "1f1b", gen);
  if (!order) return order.error().With("Megatron's order");
  pl.schedule = std::move(*order);
  p.cost_basis = CostBasis::kChunk;
  p.ticks_per_unit = 1;
  p.costs.f = {1};
  p.costs.b = {1};
  p.costs.w = {1};
  for (int s = 0; s < p.stages(); ++s) pl.stage_to_rank.push_back(s % p.P);
  pl.ops.resize(p.P);
  return pl;
}

// Every op at its stage's cost (ns), by OpId; costs[s] = {F, B}.
std::vector<Tick> Durations(const Pipeline& pl, const std::vector<std::pair<Tick, Tick>>& costs) {
  const OpSpace space = pl.problem.Space();
  std::vector<Tick> d(space.size(), 0);
  for (const auto& queue : pl.schedule.devices)
    for (const Slot& slot : queue) {
      const Op op = space.At(slot.op);
      d[slot.op] = op.kind == OpKind::kF ? costs[op.stage].first : costs[op.stage].second;
    }
  return d;
}

Tick RoundDiv(Tick a, Tick b) { return (a + b / 2) / b; }

}  // namespace

Result<ExplainReport> ExplainMegatronLog(const std::string& path, const ExplainOptions& options) {
  Result<io::MegatronLog> log = io::ReadMegatronLog(path, options.step);
  if (!log) return log.error();
  Result<int> world = CheckShape(*log);
  if (!world) return world.error();
  Result<RankFigures> fig = PerRank(*log, *world);
  if (!fig) return fig.error();
  Result<Pipeline> built = MegatronPipeline(log->args);
  if (!built) return built.error();
  const Pipeline& pl = *built;
  const int P = pl.problem.P, v = pl.problem.v, M = pl.problem.M, S = pl.problem.stages();
  ExplainReport r;
  r.files = {path};
  r.step = log->timers.iteration;
  r.P = P, r.M = M, r.v = v;
  r.placement = PlacementName(pl.problem.placement);
  r.schedule = pl.schedule.name;
  r.stage_to_rank = pl.stage_to_rank;
  const OpSpace space = pl.problem.Space();
  for (const auto& queue : pl.schedule.devices) {
    r.orders.emplace_back();
    for (const Slot& slot : queue) {
      const Op op = space.At(slot.op);
      r.orders.back().push_back(std::to_string(op.stage) + (op.kind == OpKind::kF ? "F" : "B") +
                                std::to_string(op.microbatch));
    }
  }
  // Mean costs per chunk.
  std::vector<std::pair<Tick, Tick>> mean(S);
  for (int s = 0; s < S; ++s) {
    const int rank = s % P;
    mean[s] = {std::max<Tick>(1, RoundDiv(fig->forward[rank], Tick{v} * M)),
               std::max<Tick>(1, RoundDiv(fig->backward[rank], Tick{v} * M))};
    r.costs.push_back({s, rank, {{'F', mean[s].first, 0, M}, {'B', mean[s].second, 0, M}}});
  }
  // Measured: forward-backward less the gradient syncs; the step is the slowest rank's.
  r.measured.makespan = *std::max_element(fig->pipeline.begin(), fig->pipeline.end());
  for (int k = 0; k < P; ++k) {
    r.measured.busy.push_back(fig->forward[k] + fig->backward[k]);
    r.measured.idle.push_back(r.measured.makespan - r.measured.busy.back());
  }
  Timeline replay;
  Result<RunFigures> placed = PlaceRun(pl, Durations(pl, mean), {}, &replay);
  if (!placed) return placed.error();
  r.replay = *placed;
  // Exposed p2p: a rank's p2p time beyond its idle in the replay (to its last op).
  TimerFigures& t = r.timers;
  t.iteration = log->timers.iteration;
  t.world_size = *world;
  t.pipeline = fig->pipeline;
  t.grad_sync = fig->sync;
  t.p2p = fig->p2p;
  for (int k = 0; k < P; ++k) {
    Tick end = 0;
    for (const Slot& slot : pl.schedule.devices[k]) end = std::max(end, replay.end[slot.op]);
    t.compute.push_back(r.measured.busy[k]);
    t.exposed_p2p.push_back(std::max<Tick>(0, fig->p2p[k] - (end - r.replay.busy[k])));
  }
  // Stragglers, against --expect or --equal-stages: a rank's compute per
  // microbatch ≥ 1.05x the expected sum of its chunks' F and B.
  Result<Expected> expected = LoadExpected(pl, r, options);
  if (!expected) return expected.error();
  std::vector<double> factor(P, 1.0);
  if (!expected->empty()) {
    for (int k = 0; k < P; ++k) {
      Tick want = 0;
      for (int s = k; s < S; s += P) want += expected->by_stage[s][0] + expected->by_stage[s][1];
      if (want <= 0) continue;
      const double f = static_cast<double>(r.measured.busy[k]) / (static_cast<double>(want) * M);
      if (f < 1.05) continue;
      factor[k] = f;
      std::vector<std::pair<Tick, Tick>> fixed = mean;
      for (int s = k; s < S; s += P)
        fixed[s] = {static_cast<Tick>(fixed[s].first / f + 0.5), static_cast<Tick>(fixed[s].second / f + 0.5)};
      Result<RunFigures> without = PlaceRun(pl, Durations(pl, fixed), {});
      if (!without) return without.error();
      const Tick lost = r.replay.makespan - without->makespan;
      char text[200];
      std::snprintf(text, sizeof text,
                    "rank %d is a straggler: its forward-compute + backward-compute take %.3fx "
                    "their expected time",
                    k, f);
      r.findings.push_back(
          {"straggler", k, {}, "", lost, std::string(text) + "; without it the step ends " + Us(lost) + " sooner"});
    }
  }
  std::vector<std::pair<Tick, Tick>> ideal_costs = mean;
  for (int s = 0; s < S; ++s)
    ideal_costs[s] = {static_cast<Tick>(mean[s].first / factor[s % P] + 0.5),
                      static_cast<Tick>(mean[s].second / factor[s % P] + 0.5)};
  Result<RunFigures> ideal = PlaceRun(pl, Durations(pl, ideal_costs), {});
  if (!ideal) return ideal.error();
  r.ideal = *ideal;
  // Exposed communication: without it the step ends no sooner than the
  // replay, and at most the most exposed rank's time sooner (the rank that
  // ends last waits, in its receives, on every transfer of its critical path).
  const Tick most = *std::max_element(t.exposed_p2p.begin(), t.exposed_p2p.end());
  const Tick lost = std::min(most, r.measured.makespan - r.replay.makespan);
  if (lost > 0 && lost * 200 >= r.measured.makespan) {
    const int k =
        static_cast<int>(std::max_element(t.exposed_p2p.begin(), t.exposed_p2p.end()) - t.exposed_p2p.begin());
    r.findings.push_back({"exposed_comm",
                          k,
                          {},
                          "",
                          lost,
                          "exposed communication: rank " + std::to_string(k) + " spends " + Us(t.p2p[k]) +
                              " per step in send/recv calls, " + Us(most) +
                              " more than waiting on its neighbours' compute explains; without it the step ends " +
                              Us(lost) + " sooner"});
  }
  MedianCosts medians(S, std::vector<Tick>(kKinds, 0));
  for (int s = 0; s < S; ++s) medians[s][0] = ideal_costs[s].first, medians[s][1] = ideal_costs[s].second;
  Result<std::vector<Finding>> order = FindBetterOrder(pl, medians, {}, r.ideal.makespan);
  if (!order) return order.error();
  for (Finding& f : *order) r.findings.push_back(std::move(f));
  std::stable_sort(r.findings.begin(), r.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.lost > b.lost; });
  return r;
}

}  // namespace ppsim::jobs::explain

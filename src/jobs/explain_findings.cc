// Findings: each candidate cause is removed from the replay (the orders
// placed with every op's measured duration and the fitted latencies) and
// the run placed again; lost_us is how much sooner it then ends. Thresholds
// (docs/explain.md): a hiccup is an op ≥ 1.3x its stage and kind's median
// (of ≥ 3); a slow link a hop ≥ 2x the median hop and ≥ 10 µs above it; a
// straggler a rank whose ops take ≥ 1.05x their expected cost (median
// ratio, ≥ 80 % of its ops slower); host-bound a measured makespan ≥ 0.5 %
// past the replay's.
#include <algorithm>
#include <cstdio>

#include "explain_internal.h"
#include "ppsim/placement.h"

namespace ppsim::jobs::explain {
namespace {

std::string Us(Tick ns) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f µs", static_cast<double>(ns) / 1000.0);
  return buf;
}

double MedianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Tick MedianTick(std::vector<Tick> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

struct Context {
  const Pipeline& pl;
  const ExplainReport& report;
  OpSpace space;
  std::vector<Tick> measured;  // durations by OpId
  Result<Tick> Lost(std::vector<Tick> durations, const std::vector<Hop>& hops) const {
    Result<RunFigures> run = PlaceRun(pl, std::move(durations), hops);
    if (!run) return run.error();
    return report.replay.makespan - run->makespan;
  }
  Tick Median(int stage, char letter) const {
    for (const StageCosts& c : report.costs)
      if (c.stage == stage)
        for (const FittedCost& f : c.kinds)
          if (f.kind == letter) return f.median;
    return 0;
  }
};

}  // namespace

Error FindCauses(const Pipeline& pl, const Expected& expected, ExplainReport& report, Timeline* ideal_run) {
  Context cx{pl, report, pl.problem.Space(), MeasuredDurations(pl)};
  std::vector<Finding> found;
  std::vector<double> factor(pl.problem.P, 1.0);  // straggler factors, for the ideal
  // Stragglers.
  if (!expected.empty()) {
    for (int r = 0; r < pl.problem.P; ++r) {
      std::vector<double> ratios;
      int slower = 0;
      for (const MeasuredOp& op : pl.ops[r]) {
        const Tick want = expected.by_stage[op.stage][LetterIndex(op.letter)];
        if (want <= 0) continue;
        ratios.push_back(static_cast<double>(op.duration()) / static_cast<double>(want));
        slower += ratios.back() > 1.02;
      }
      if (ratios.empty()) continue;
      const double f = MedianOf(ratios);
      if (f < 1.05 || slower < 0.8 * static_cast<double>(ratios.size())) continue;
      factor[r] = f;
      std::vector<Tick> d = cx.measured;
      for (const MeasuredOp& op : pl.ops[r]) {
        const OpId id = op.Id(cx.space);
        d[id] = static_cast<Tick>(static_cast<double>(d[id]) / f + 0.5);
      }
      Result<Tick> lost = cx.Lost(std::move(d), report.hops);
      if (!lost) return lost.error();
      char text[200];
      std::snprintf(text, sizeof text, "rank %d is a straggler: its ops take %.3fx their expected time (median of %zu)",
                    r, f, ratios.size());
      found.push_back({"straggler", r, {}, "", *lost, std::string(text) + "; without it the step ends " + Us(*lost) +
                                                          " sooner"});
    }
  }
  // Hiccups: one op far slower than its stage and kind's other microbatches.
  for (const StageCosts& c : report.costs) {
    for (const FittedCost& f : c.kinds) {
      if (f.count < 3) continue;
      for (const MeasuredOp& op : pl.ops[c.rank]) {
        if (op.stage != c.stage || op.letter != f.kind || op.duration() * 10 < f.median * 13) continue;
        std::vector<Tick> d = cx.measured;
        d[op.Id(cx.space)] = f.median;
        Result<Tick> lost = cx.Lost(std::move(d), report.hops);
        if (!lost) return lost.error();
        char text[200];
        std::snprintf(text, sizeof text, "hiccup: %s on rank %d took %.0f µs, %.2fx its stage's median %.0f µs",
                      op.action.c_str(), op.rank, op.duration() / 1000.0,
                      static_cast<double>(op.duration()) / static_cast<double>(f.median), f.median / 1000.0);
        found.push_back({"hiccup", op.rank, {}, op.action, *lost, std::string(text) + "; it cost " + Us(*lost)});
      }
    }
  }
  // Slow links.
  std::vector<Hop> nominal = report.hops;
  if (report.hops.size() >= 2) {
    std::vector<Tick> lat;
    for (const Hop& h : report.hops) lat.push_back(h.latency);
    const Tick m = MedianTick(lat);
    for (size_t i = 0; i < report.hops.size(); ++i) {
      const Hop& h = report.hops[i];
      if (h.latency < 2 * m || h.latency - m < 10'000) continue;
      std::vector<Hop> hops = report.hops;
      hops[i].latency = m;
      nominal[i].latency = m;
      Result<Tick> lost = cx.Lost(cx.measured, hops);
      if (!lost) return lost.error();
      char text[200];
      std::snprintf(text, sizeof text, "slow link: ranks %d-%d take %.1f µs per transfer against a median hop of %.1f µs",
                    h.a, h.b, h.latency / 1000.0, m / 1000.0);
      found.push_back({"slow_link", -1, {h.a, h.b}, "", *lost, std::string(text) + "; it cost " + Us(*lost)});
    }
  }
  // Host-bound: the GPU waited on late launches (measured later than replay).
  const Tick host = report.measured.makespan - report.replay.makespan;
  if (host * 200 >= report.measured.makespan) {
    std::vector<Tick> late(pl.problem.P, 0);
    std::vector<const MeasuredOp*> by_id(cx.space.size(), nullptr);
    for (const auto& rank : pl.ops)
      for (const MeasuredOp& op : rank) {
        by_id[op.Id(cx.space)] = &op;
        if (op.pair()) by_id[op.PairId(cx.space)] = &op;
      }
    for (int r = 0; r < pl.problem.P; ++r) {
      Tick prev_end = INT64_MIN;
      for (const MeasuredOp& op : pl.ops[r]) {
        Tick ready = prev_end;
        const OpId id = op.Id(cx.space);
        const OpId pair = op.pair() ? op.PairId(cx.space) : kNoOp;
        for (OpId own : {id, pair}) {
          const OpId dep = own == kNoOp ? kNoOp : DependencyOf(cx.space, pl.split, own);
          if (dep == kNoOp || by_id[dep] == nullptr) continue;
          const Op d = cx.space.At(dep);
          ready = std::max(ready, by_id[dep]->end + HopLatency(pl, report.hops, d.stage, cx.space.At(own).stage));
        }
        if (prev_end != INT64_MIN && op.start > ready) late[r] += op.start - ready;
        prev_end = op.end;
      }
    }
    const int r = static_cast<int>(std::max_element(late.begin(), late.end()) - late.begin());
    found.push_back({"host_bound", r, {}, "", host,
                     "host-bound: the GPUs waited on late CPU launches, most on rank " + std::to_string(r) + " (" +
                         Us(late[r]) + " of late starts); the measured step ends " + Us(host) +
                         " after its replay"});
  }
  // The ideal: median costs with the stragglers' factors taken out, nominal hops.
  std::vector<Tick> ideal(cx.space.size(), 0);
  const int S = pl.problem.stages();
  std::vector<std::vector<std::vector<Tick>>> per(S, std::vector<std::vector<Tick>>(kKinds));
  for (const auto& rank : pl.ops)
    for (const MeasuredOp& op : rank)
      per[op.stage][LetterIndex(op.letter)].push_back(
          static_cast<Tick>(static_cast<double>(op.duration()) / factor[op.rank] + 0.5));
  MedianCosts medians(S, std::vector<Tick>(kKinds, 0));
  for (int s = 0; s < S; ++s)
    for (int k = 0; k < kKinds; ++k) medians[s][k] = MedianTick(per[s][k]);
  for (const auto& rank : pl.ops)
    for (const MeasuredOp& op : rank) ideal[op.Id(cx.space)] = medians[op.stage][LetterIndex(op.letter)];
  Result<RunFigures> run = PlaceRun(pl, std::move(ideal), nominal, ideal_run);
  if (!run) return run.error();
  report.ideal = *run;
  // A registry order that would end sooner on the same costs and memory.
  Result<std::vector<Finding>> order = FindBetterOrder(pl, medians, nominal, report.ideal.makespan);
  if (!order) return order.error();
  for (Finding& f : *order) found.push_back(std::move(f));
  std::stable_sort(found.begin(), found.end(), [](const Finding& a, const Finding& b) { return a.lost > b.lost; });
  report.findings = std::move(found);
  return Error::Ok();
}

}  // namespace ppsim::jobs::explain

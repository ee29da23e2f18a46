// Clocks, latencies and costs fitted from the measured ops.
//
// Skew and latency from one hop's dependency pairs, as NTP does it: across
// ranks a and b, the smallest gap from a producer's end to its consumer's
// start (the consumer's device idle, waiting on the data) is the latency
// plus b's clock offset from a's; the smallest gap the other way is the
// latency minus it. With the latency the same both ways, half their sum is
// the latency and half their difference the offset. Offsets are chained
// from rank 0 along the hops (a breadth-first walk); a rank reached by no
// two-way hop keeps offset 0, and its one-way gaps are taken as latency.
#include <algorithm>
#include <map>
#include <queue>

#include "explain_internal.h"

namespace ppsim::jobs::explain {
namespace {

// The op a measured op waits on (placement.h's rules), or nullptr.
struct OpIndex {
  explicit OpIndex(const Pipeline& pl) : space(pl.problem.Space()), at(space.size(), nullptr) {
    for (const auto& rank : pl.ops)
      for (const MeasuredOp& op : rank) {
        at[op.Id(space)] = &op;
        if (op.pair()) at[op.PairId(space)] = &op;  // both halves end with the pair
      }
  }
  const MeasuredOp* Producer(const MeasuredOp& op) const {
    const int S = space.stages();
    if (op.kind == OpKind::kF) return op.stage > 0 ? at[space.Id(OpKind::kF, op.microbatch, op.stage - 1)] : nullptr;
    if (op.kind == OpKind::kW) return at[space.Id(OpKind::kB, op.microbatch, op.stage)];
    if (op.stage == S - 1) return at[space.Id(OpKind::kF, op.microbatch, op.stage)];
    return at[space.Id(OpKind::kB, op.microbatch, op.stage + 1)];
  }
  OpSpace space;
  std::vector<const MeasuredOp*> at;
};

Tick Median(std::vector<Tick> v) {
  if (v.empty()) return 0;
  const size_t n = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + n, v.end());
  if (v.size() % 2 == 1) return v[n];
  const Tick hi = v[n];
  const Tick lo = *std::max_element(v.begin(), v.begin() + n);
  return lo + (hi - lo) / 2;
}

}  // namespace

void FitClock(Pipeline& pl, ExplainReport& report) {
  const int P = pl.problem.P;
  const OpIndex index(pl);
  // min_gap[{a, b}]: smallest gap from an op on a to its consumer on b, both clocks raw.
  std::map<std::pair<int, int>, Tick> min_gap;
  std::map<std::pair<int, int>, int> pairs;
  for (const auto& rank : pl.ops) {
    for (const MeasuredOp& op : rank) {
      // A pair starts when the later of its two inputs arrives: no gap to read.
      const MeasuredOp* from = op.pair() ? nullptr : index.Producer(op);
      if (from == nullptr || from->rank == op.rank) continue;
      const std::pair<int, int> key{from->rank, op.rank};
      const Tick gap = op.start - from->end;
      auto [it, fresh] = min_gap.emplace(key, gap);
      if (!fresh) it->second = std::min(it->second, gap);
      ++pairs[{std::min(from->rank, op.rank), std::max(from->rank, op.rank)}];
    }
  }
  // Offsets from rank 0 along two-way hops.
  std::vector<Tick> skew(P, 0);
  std::vector<bool> known(P, false);
  std::queue<int> todo;
  known[0] = true;
  todo.push(0);
  while (!todo.empty()) {
    const int a = todo.front();
    todo.pop();
    for (int b = 0; b < P; ++b) {
      if (known[b]) continue;
      const auto ab = min_gap.find({a, b}), ba = min_gap.find({b, a});
      if (ab == min_gap.end() || ba == min_gap.end()) continue;
      skew[b] = skew[a] + (ab->second - ba->second) / 2;  // b's clock minus a's
      known[b] = true;
      todo.push(b);
    }
  }
  report.skew = skew;
  for (auto& rank : pl.ops) {
    for (MeasuredOp& op : rank) {
      const Tick s = skew[op.rank];
      op.start -= s;
      op.end -= s;
      op.cpu_start -= s;
      if (op.first_launch >= 0) op.first_launch -= s;
    }
  }
  // Latency per hop: the corrected smallest gaps, averaged over the two ways.
  report.hops.clear();
  for (const auto& [key, count] : pairs) {
    const auto [a, b] = key;
    std::vector<Tick> ways;
    for (auto way : {std::pair{a, b}, std::pair{b, a}})
      if (auto it = min_gap.find(way); it != min_gap.end()) ways.push_back(it->second - skew[way.second] + skew[way.first]);
    Tick latency = 0;
    for (Tick w : ways) latency += w;
    latency = std::max<Tick>(0, latency / static_cast<Tick>(ways.size()));
    report.hops.push_back({a, b, latency, count});
  }
}

void FitCosts(const Pipeline& pl, ExplainReport& report) {
  const int S = pl.problem.stages();
  std::vector<std::vector<std::vector<Tick>>> d(S, std::vector<std::vector<Tick>>(kKinds));
  for (const auto& rank : pl.ops)
    for (const MeasuredOp& op : rank) d[op.stage][LetterIndex(op.letter)].push_back(op.duration());
  report.costs.clear();
  for (int s = 0; s < S; ++s) {
    StageCosts c;
    c.stage = s;
    c.rank = pl.stage_to_rank[s];
    for (int k = 0; k < kKinds; ++k) {
      if (d[s][k].empty()) continue;
      FittedCost f;
      f.kind = "FBIW&"[k];
      f.median = Median(d[s][k]);
      std::vector<Tick> dev;
      for (Tick x : d[s][k]) dev.push_back(x > f.median ? x - f.median : f.median - x);
      f.spread = Median(dev);
      f.count = static_cast<int>(d[s][k].size());
      c.kinds.push_back(f);
    }
    report.costs.push_back(c);
  }
}

int LetterIndex(char letter) {
  switch (letter) {
    case 'F': return 0;
    case 'B': return 1;
    case 'I': return 2;
    case '&': return 4;
    default: return 3;
  }
}

Tick HopLatency(const Pipeline& pl, const std::vector<Hop>& hops, int a, int b) {
  const int ra = pl.stage_to_rank[a], rb = pl.stage_to_rank[b];
  if (ra == rb) return 0;
  for (const Hop& h : hops)
    if (h.a == std::min(ra, rb) && h.b == std::max(ra, rb)) return h.latency;
  return 0;
}

}  // namespace ppsim::jobs::explain

#include "search_bound.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "ppsim/microbatch_lengths.h"

namespace ppsim::search {

Tick BoundParts::Max() const { return std::max({critical_path, device_work, fill, drain, throughput}); }

namespace {

Tick CeilDiv(Tick a, Tick b) { return a <= 0 ? 0 : (a + b - 1) / b; }

// Earliest starts of F(m,s) and B(m,s) for a microbatch alone (every m alike).
struct Heads {
  std::vector<Tick> f, b;
  Tick critical_path = 0;  // earliest end of the last W
};

Heads EarliestStarts(const Problem& p) {
  const int S = p.stages();
  Heads h;
  h.f.assign(S, 0);
  h.b.assign(S, 0);
  for (int s = 1; s < S; ++s) h.f[s] = h.f[s - 1] + p.costs.Of(OpKind::kF, s - 1) + p.CommBetween(s - 1, s);
  h.b[S - 1] = h.f[S - 1] + p.costs.Of(OpKind::kF, S - 1);
  for (int s = S - 2; s >= 0; --s) h.b[s] = h.b[s + 1] + p.costs.Of(OpKind::kB, s + 1) + p.CommBetween(s, s + 1);
  for (int s = 0; s < S; ++s)
    h.critical_path = std::max(h.critical_path, h.b[s] + p.costs.Of(OpKind::kB, s) + p.costs.Of(OpKind::kW, s));
  return h;
}

// `p` with every F, B and W cost times `k`, the same cost for every microbatch.
Problem Scaled(const Problem& p, Tick k) {
  Problem q = p;
  q.microbatch_weights.clear();
  q.lengths = LengthSource::kNone;
  for (std::vector<Tick>* c : {&q.costs.f, &q.costs.b, &q.costs.w})
    for (Tick& x : *c) x *= k;
  return q;
}

BoundParts EqualLowerBound(const Problem& p, const Budget& budget) {
  const Heads h = EarliestStarts(p);
  const Tick M = p.M;
  const Tick inf = std::numeric_limits<Tick>::max();
  BoundParts out;
  out.critical_path = h.critical_path;
  for (int d = 0; d < p.P; ++d) {
    Tick first_f = inf, first_b = inf, work = 0, f_work = 0, max_f = 0, min_bw = inf, min_tail = inf;
    std::int64_t units = 0, min_unit = std::numeric_limits<std::int64_t>::max(), max_unit = 0;
    __int128 held_time = 0;  // Σ units × shortest hold over the device's sets (bytes × ticks × M: 128 bits)
    int stages = 0;
    for (int s = 0; s < p.stages(); ++s) {
      if (p.DeviceOf(s) != d) continue;
      ++stages;
      const Tick f = p.costs.Of(OpKind::kF, s), b = p.costs.Of(OpKind::kB, s), w = p.costs.Of(OpKind::kW, s);
      first_f = std::min(first_f, h.f[s]);
      first_b = std::min(first_b, h.b[s]);
      work += M * (f + b + w);
      f_work += M * f;
      max_f = std::max(max_f, f);
      // A set freed partly by B frees its rest only with W.
      min_bw = std::min(min_bw, budget.by_b[s] > 0 ? b : b + w);
      min_tail = std::min(min_tail, h.critical_path - h.f[s] - f);
      units += M * budget.units[s];
      min_unit = std::min(min_unit, budget.units[s]);
      max_unit = std::max(max_unit, budget.units[s]);
      const Tick until_b = h.b[s] + b - h.f[s];
      held_time += static_cast<__int128>(M) * (static_cast<__int128>(budget.by_b[s]) * until_b +
                                                static_cast<__int128>(budget.units[s] - budget.by_b[s]) * (until_b + w));
    }
    if (stages == 0) continue;
    const std::int64_t cap = budget.capacity[d];
    out.device_work = std::max(out.device_work, first_f + work);
    // Fill: before its first B can start, a device runs only forwards, and
    // no more than its capacity holds (no W can have freed anything yet).
    const Tick fits = min_unit == 0 ? M * stages : std::min<Tick>(M * stages, cap / min_unit);
    const Tick before = std::min({first_b - first_f, fits * max_f, f_work});
    out.fill = std::max(out.fill, first_b + work - before);
    // Drain: when its last F starts, a device holds at most its capacity,
    // so enough backwards have freed their sets before it.
    const Tick freed = max_unit == 0 ? 0 : CeilDiv(units - cap, max_unit);
    out.drain = std::max(out.drain, first_f + f_work + freed * min_bw + min_tail);
    // Throughput: Σ over sets of units × time held ≤ capacity × time.
    if (cap > 0) out.throughput = std::max(out.throughput, first_f + static_cast<Tick>((held_time + cap - 1) / cap));
  }
  return out;
}

}  // namespace

// With per-microbatch costs every op lasts at least its cost at the lightest
// weight, and placement never starts an op earlier when an op lasts longer,
// so every part of the bound at the lightest weight holds (EqualLowerBound).
// Two parts read the weights themselves: the heaviest microbatch's own
// chain, and each device's whole work Σ_m w_m·(F+B+W) after the earliest
// tick any of its ops can start.
BoundParts LowerBound(const Problem& p, const Budget& budget) {
  const std::vector<Tick> w = MicrobatchWeights(p);
  if (w.empty()) return EqualLowerBound(p, budget);
  const Tick lightest = *std::min_element(w.begin(), w.end()), heaviest = *std::max_element(w.begin(), w.end());
  Tick sum = 0;
  for (Tick x : w) sum += x;
  const Problem light = Scaled(p, lightest);
  BoundParts out = EqualLowerBound(light, budget);
  out.critical_path = std::max(out.critical_path, EarliestStarts(Scaled(p, heaviest)).critical_path);
  const Heads h = EarliestStarts(light);
  std::vector<Tick> first(p.P, std::numeric_limits<Tick>::max()), work(p.P, 0);
  for (int s = 0; s < p.stages(); ++s) {
    const int d = p.DeviceOf(s);
    first[d] = std::min(first[d], h.f[s]);
    work[d] += sum * (p.costs.Of(OpKind::kF, s) + p.costs.Of(OpKind::kB, s) + p.costs.Of(OpKind::kW, s));
  }
  for (int d = 0; d < p.P; ++d)
    if (work[d] > 0) out.device_work = std::max(out.device_work, first[d] + work[d]);
  return out;
}

Problem CommRelaxation(const Problem& p) {
  if (!p.comms.enabled()) return p;
  Problem q = p;
  q.comm = 0;  // one stage: no hop
  q.comm_hops.assign(std::max(0, p.stages() - 1), 0);
  for (int b = 0; b + 1 < p.stages(); ++b) q.comm_hops[b] = p.comms.latency + p.comms.SizeTicks(p.comms.BytesAt(b));
  return q;
}

}  // namespace ppsim::search

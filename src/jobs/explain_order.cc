// The `order` finding: every registry schedule of the pipeline's shape
// placed on the fitted median costs (the ideal's), and `ppsim search`'s
// order when the run splits its backward (I and W), compared with the
// pipeline's own orders on the same costs; memory is the fullest device's
// peak of activations held from the start of F to the end of its B or W.
#include <algorithm>
#include <cstdio>
#include <optional>

#include "explain_internal.h"
#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/placement.h"
#include "ppsim/search.h"

namespace ppsim::jobs::explain {
namespace {

struct Placed {
  Tick makespan = 0;
  std::int64_t peak = 0;  // fullest device, chunk sets
};

// `schedule` placed with each op at its stage and letter's median; nullopt
// when a median it needs is unknown (a kind the trace never ran).
Result<std::optional<Placed>> PlaceOnMedians(const Pipeline& pl, const Schedule& schedule, const MedianCosts& med,
                                             const std::vector<Hop>& hops) {
  Problem p = pl.problem;
  const OpSpace space = schedule.space;
  p.op_durations.assign(space.size(), 0);
  for (const auto& queue : schedule.devices) {
    for (const Slot& slot : queue) {
      const Op op = space.At(slot.op);
      const auto& m = med[op.stage];
      Tick d = 0;
      if (slot.pair()) {  // an overlapped pair: FB of its forward's stage
        const Op other = space.At(slot.overlapped);
        d = med[op.kind == OpKind::kF ? op.stage : other.stage][4];
      } else if (op.kind == OpKind::kF) d = m[0];
      else if (op.kind == OpKind::kW) d = m[3];
      else if (!schedule.split_backward || slot.full) d = m[1] > 0 ? m[1] : (m[2] > 0 && m[3] > 0 ? m[2] + m[3] : 0);
      else d = m[2];
      if (d <= 0) return std::optional<Placed>();
      p.op_durations[slot.op] = d;
    }
  }
  const int S = p.stages();
  p.comm_hops.assign(S > 1 ? S - 1 : 0, 0);
  for (int s = 0; s + 1 < S; ++s) p.comm_hops[s] = HopLatency(pl, hops, s, s + 1);
  if (Error e = ValidateProblem(p); !e.ok()) return e;
  Result<Timeline> t = Place(p, schedule);
  if (!t) return t.error();
  MeasureOptions options;
  options.series = false;
  const Metrics metrics = Measure(*t, options);
  Placed out{t->makespan, 0};
  for (std::int64_t peak : metrics.resident_peak_per_device) out.peak = std::max(out.peak, peak);
  return std::optional<Placed>(out);
}

// Search's order on the medians, within `peak` chunk sets per device (the
// own orders' peak): split runs on a loop or V only (a measured full
// backward cannot be split), at most kSearchEvaluations candidates so that
// the finding is the same on every machine. nullopt when it does not apply.
constexpr std::int64_t kSearchEvaluations = 20000;
Result<std::optional<Placed>> SearchOnMedians(const Pipeline& pl, const MedianCosts& med, const std::vector<Hop>& hops,
                                              std::int64_t peak) {
  Problem p = pl.problem;
  if (!pl.split || (p.placement != Placement::kLoop && p.placement != Placement::kVShape)) return std::optional<Placed>();
  const int S = p.stages();
  p.costs = Costs{};
  p.costs.f.assign(S, 0), p.costs.b.assign(S, 0), p.costs.w.assign(S, 0);
  for (int s = 0; s < S; ++s) {
    p.costs.f[s] = med[s][0], p.costs.b[s] = med[s][2], p.costs.w[s] = med[s][3];
    if (p.costs.f[s] <= 0 || p.costs.b[s] <= 0 || p.costs.w[s] <= 0) return std::optional<Placed>();
  }
  p.comm_hops.assign(S > 1 ? S - 1 : 0, 0);
  for (int s = 0; s + 1 < S; ++s) p.comm_hops[s] = HopLatency(pl, hops, s, s + 1);
  if (Error e = ValidateProblem(p); !e.ok()) return std::optional<Placed>();
  SearchOptions options;
  options.max_activations = peak / p.v;  // stage-sets: a chunk's set is 1/v of one
  options.max_evaluations = kSearchEvaluations;
  options.time_limit_seconds = 600;
  if (options.max_activations < 1) return std::optional<Placed>();
  Result<SearchResult> r = Search(p, options);
  if (!r) return std::optional<Placed>();  // the budget below the minimum: nothing to offer
  MeasureOptions mo;
  mo.series = false;
  const Metrics metrics = Measure(r->timeline, mo);
  Placed out{r->timeline.makespan, 0};
  for (std::int64_t held : metrics.resident_peak_per_device) out.peak = std::max(out.peak, held);
  return std::optional<Placed>(out);
}

}  // namespace

Result<std::vector<Finding>> FindBetterOrder(const Pipeline& pl, const MedianCosts& medians,
                                             const std::vector<Hop>& hops, Tick ideal_makespan) {
  Result<std::optional<Placed>> own = PlaceOnMedians(pl, pl.schedule, medians, hops);
  if (!own) return own.error();
  if (!*own) return std::vector<Finding>{};
  std::string best_name;
  Placed best{ideal_makespan, (*own)->peak};
  for (const GeneratorInfo& g : Generators()) {
    const std::optional<Schedule> s = RegistryOrder(pl, g);
    if (!s || s->devices == pl.schedule.devices) continue;
    Result<std::optional<Placed>> placed = PlaceOnMedians(pl, *s, medians, hops);
    if (!placed) return placed.error();
    if (!*placed || (*placed)->peak > (*own)->peak || (*placed)->makespan >= best.makespan) continue;
    best = **placed;
    best_name = g.name;
  }
  Result<std::optional<Placed>> searched = SearchOnMedians(pl, medians, hops, (*own)->peak);
  if (!searched) return searched.error();
  if (*searched && (*searched)->peak <= (*own)->peak && (*searched)->makespan < best.makespan) {
    best = **searched;
    best_name = "search";
  }
  if (best_name.empty()) return std::vector<Finding>{};
  const Tick lost = ideal_makespan - best.makespan;
  char text[240];
  std::snprintf(text, sizeof text,
                "order: %s would end %.1f µs sooner than these orders on the fitted costs, holding at most %lld "
                "activation sets per device as they do (%lld)",
                best_name == "search" ? "ppsim search's order (search --cost-file of --export-costs)" : best_name.c_str(), static_cast<double>(lost) / 1000.0, static_cast<long long>(best.peak),
                static_cast<long long>((*own)->peak));
  return std::vector<Finding>{{"order", -1, {}, best_name, lost, text}};
}

}  // namespace ppsim::jobs::explain

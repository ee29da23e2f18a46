// The runs of `ppsim explain` on one axis: the measured one as the trace
// has it, and orders placed by ppsim (placement.h) with given durations;
// and the expected costs a straggler is judged against.
#include <algorithm>

#include "explain_internal.h"
#include "ppsim/io/cost_file.h"
#include "ppsim/placement.h"

namespace ppsim::jobs::explain {

std::vector<Tick> MeasuredDurations(const Pipeline& pl) {
  const OpSpace space = pl.problem.Space();
  std::vector<Tick> d(space.size(), 0);
  // A pair's span is its forward's (the slot's first op, which placement
  // times the slot by); its backward's entry stays 0.
  for (const auto& rank : pl.ops)
    for (const MeasuredOp& op : rank) d[op.Id(space)] = std::max<Tick>(0, op.duration());
  return d;
}

Result<RunFigures> PlaceRun(const Pipeline& pl, std::vector<Tick> durations, const std::vector<Hop>& hops,
                            Timeline* placed) {
  Problem p = pl.problem;
  const int S = p.stages();
  p.comm_hops.assign(S > 1 ? S - 1 : 0, 0);
  for (int s = 0; s + 1 < S; ++s) p.comm_hops[s] = HopLatency(pl, hops, s, s + 1);
  p.op_durations = std::move(durations);
  if (Error e = ValidateProblem(p); !e.ok()) return e;
  Result<Timeline> t = Place(p, pl.schedule);
  if (!t) return t.error();
  RunFigures f;
  f.makespan = t->makespan;
  f.busy.assign(p.P, 0);
  for (int r = 0; r < p.P; ++r)
    for (const Slot& slot : pl.schedule.devices[r]) f.busy[r] += p.op_durations[slot.op];
  for (Tick b : f.busy) f.idle.push_back(f.makespan - b);
  if (placed) *placed = std::move(*t);
  return f;
}

RunFigures MeasuredFigures(const Pipeline& pl) {
  Tick first = INT64_MAX, last = INT64_MIN;
  RunFigures f;
  for (const auto& rank : pl.ops) {
    Tick busy = 0;
    for (const MeasuredOp& op : rank) {
      first = std::min(first, op.start);
      last = std::max(last, op.end);
      busy += op.duration();
    }
    f.busy.push_back(busy);
  }
  f.makespan = last - first;
  for (Tick b : f.busy) f.idle.push_back(f.makespan - b);
  return f;
}

Result<Expected> LoadExpected(const Pipeline& pl, const ExplainReport& report, const ExplainOptions& options) {
  Expected e;
  const int S = pl.problem.stages();
  if (options.equal_stages) {
    e.by_stage.assign(S, std::vector<Tick>(kKinds, 0));
    for (int k = 0; k < kKinds; ++k) {
      std::vector<Tick> medians;
      for (const StageCosts& c : report.costs)
        for (const FittedCost& f : c.kinds)
          if (LetterIndex(f.kind) == k) medians.push_back(f.median);
      if (medians.empty()) continue;
      std::nth_element(medians.begin(), medians.begin() + medians.size() / 2, medians.end());
      for (int s = 0; s < S; ++s) e.by_stage[s][k] = medians[medians.size() / 2];
    }
  }
  if (options.expect_file.empty()) return e;
  Problem p;
  p.P = pl.problem.P;
  p.v = pl.problem.v;
  p.costs = Costs{};
  p.costs.f.clear();
  if (Error err = io::ApplyCostFile(options.expect_file, p); !err.ok()) return err.With("expect");
  auto at = [&](const std::vector<Tick>& values, int s) -> Tick {
    if (values.empty()) return 0;
    return values.size() == 1 ? values[0] : values[s];
  };
  for (const auto* values : {&p.costs.f, &p.costs.b, &p.costs.w, &p.costs.bw, &p.costs.fb})
    if (values->size() > 1 && static_cast<int>(values->size()) != S)
      return Fail(ErrorCode::kInvalidValue, "expect: " + std::to_string(values->size()) +
                                                " per-stage values given but the run has " + std::to_string(S) +
                                                " stages (give 1 or " + std::to_string(S) + ")");
  e.by_stage.assign(S, std::vector<Tick>(kKinds, 0));
  for (int s = 0; s < S; ++s) {
    const Tick b = at(p.costs.b, s), w = at(p.costs.w, s), bw = at(p.costs.bw, s);
    e.by_stage[s][0] = at(p.costs.f, s);
    e.by_stage[s][1] = bw > 0 ? bw : (w > 0 ? b + w : b);  // a full backward
    e.by_stage[s][2] = b;
    e.by_stage[s][3] = w;
    e.by_stage[s][4] = at(p.costs.fb, s);
  }
  return e;
}

}  // namespace ppsim::jobs::explain

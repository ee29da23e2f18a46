// The runs `ppsim explain` draws: the measured one as a Timeline whose ops
// have the trace's GPU times (ns ticks from the first op's start, on rank
// 0's clock), beside the ideal placement, and the measured ops that started
// late against it.
#include <algorithm>
#include <climits>

#include "explain_internal.h"
#include "ppsim/render/output_format.h"

namespace ppsim::jobs::explain {

void KeepRuns(const Pipeline& pl, Timeline ideal, ExplainReport& report) {
  const OpSpace space = pl.problem.Space();
  auto runs = std::make_shared<ExplainRuns>();
  Timeline& t = runs->measured;
  t.problem = pl.problem;
  t.problem.op_durations = MeasuredDurations(pl);
  t.schedule = pl.schedule;
  t.end.assign(space.size(), -1);
  t.stored_start.assign(space.size(), -1);
  Tick origin = INT64_MAX;
  for (const auto& rank : pl.ops)
    for (const MeasuredOp& op : rank) origin = std::min(origin, op.start);
  for (const auto& rank : pl.ops) {
    for (const MeasuredOp& op : rank) {
      for (OpId id : {op.Id(space), op.pair() ? op.PairId(space) : kNoOp}) {
        if (id == kNoOp) continue;
        t.stored_start[id] = op.start - origin;
        t.end[id] = op.end - origin;
        t.makespan = std::max(t.makespan, t.end[id]);
      }
    }
  }
  // Late: 1 % of the ideal makespan or more after the ideal start.
  for (const auto& rank : pl.ops) {
    for (const MeasuredOp& op : rank) {
      const OpId id = op.Id(space);
      const Tick late = t.stored_start[id] - ideal.Start(id);
      if (late > 0 && late * 100 >= ideal.makespan) report.late.push_back({op.rank, op.action, late, t.stored_start[id], ideal.Start(id)});
    }
  }
  runs->ideal = std::move(ideal);
  report.runs = std::move(runs);
}

}  // namespace ppsim::jobs::explain

namespace ppsim::jobs {

bool IsExplainPicture(const std::string& path) {
  Result<render::OutputFormat> f = render::FormatFor(path, "");
  return f && render::IsStillPicture(*f);
}

}  // namespace ppsim::jobs

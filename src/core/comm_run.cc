// RunComms and the names of comm actions. The placement itself is the walk
// (comm_walk.cc), with the graph (comm_graph_run.cc) behind it for messages.
#include "ppsim/comm_run.h"

#include <string>
#include <utility>

#include "ppsim/placement.h"

namespace ppsim {

std::string CommActionName(const OpSpace& space, const CommAction& a) {
  if (a.kind == CommKind::kCompute) return OpName(space.At(a.slot.op)) + (a.slot.pair() ? "+" + OpName(space.At(a.slot.overlapped)) : "");
  std::string name = CommKindName(a.kind);
  if (a.microbatch >= 0) name += std::to_string(a.microbatch);
  return name + "@s" + std::to_string(a.stage);
}

Result<CommRun> RunComms(const Problem& problem, const Schedule& schedule, const CommProgram& program,
                         const CommModel& model) {
  CommScratch scratch;
  CommRun run;
  Schedule copy = schedule;
  const Error e = RunCommsInto(problem, std::move(copy), program, model, scratch, run);
  if (!e.ok()) return e;
  return run;
}

}  // namespace ppsim

#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

// PyTorch's ScheduleLoopedBFS: each local chunk in turn runs all M
// forwards; then the chunks in reverse run their backwards, microbatches in
// reverse order.
Result<Schedule> GenerateLoopedBFS(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * p.v * p.M);
    for (int c = 0; c < p.v; ++c)
      for (int m = 0; m < p.M; ++m) q.F(m, c * p.P + d);
    for (int c = p.v - 1; c >= 0; --c)
      for (int m = p.M - 1; m >= 0; --m) q.B(m, c * p.P + d);
  }
  return s;
}

}  // namespace

// Listed in generators.cc.
extern const GeneratorInfo kLoopedBFS = {
    .name = "looped-bfs",
    .description = "Looped BFS (PyTorch ScheduleLoopedBFS): each chunk's forwards for all microbatches, then backwards",
    .preconditions = "chunks v ≥ 1",
    .placement = Placement::kLoop,
    .generate = &GenerateLoopedBFS,
};

}  // namespace ppsim

#include "core/schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {

Result<Schedule> GenerateGPipe(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * p.M);
    for (int m = 0; m < p.M; ++m) q.F(m, d);
    for (int m = 0; m < p.M; ++m) q.B(m, d);
  }
  return s;
}

}  // namespace ppsim

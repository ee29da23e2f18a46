#include <algorithm>

#include "core/schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim {

// Device d runs min(P-1-d, M) warm-up forwards, then alternates one forward
// and one backward, then drains the remaining backwards.
Result<Schedule> Generate1F1B(const Problem& p) {
  Schedule s = EmptySchedule(p);
  for (int d = 0; d < p.P; ++d) {
    QueueBuilder q(s, d);
    q.Reserve(2 * p.M);
    const int warmup = std::min(p.P - 1 - d, p.M);
    int f = 0, b = 0;
    while (f < warmup) q.F(f++, d);
    while (f < p.M) {
      q.F(f++, d);
      q.B(b++, d);
    }
    while (b < p.M) q.B(b++, d);
  }
  return s;
}

}  // namespace ppsim

// SendBuffersHeld (comm_run.h): each device's send buffers over the step,
// by the rule FinishFigures uses for their peak (comm_figures.cc).
#include <algorithm>
#include <utility>

#include "ppsim/comm_run.h"

namespace ppsim {

std::vector<StepSeries> SendBuffersHeld(const CommFigures& figures, int P, SendRelease release, Tick makespan) {
  std::vector<std::vector<std::pair<Tick, std::int64_t>>> deltas(P);
  for (const Transfer& x : figures.transfers) {
    const Tick to = release == SendRelease::kCompletion ? x.end : makespan;
    if (x.bytes == 0 || to <= x.send_post) continue;  // held during no tick
    deltas[x.src].emplace_back(x.send_post, x.bytes);
    deltas[x.src].emplace_back(to, -x.bytes);
  }
  std::vector<StepSeries> out(P);
  for (int d = 0; d < P; ++d) {
    auto& ds = deltas[d];
    std::sort(ds.begin(), ds.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::int64_t held = 0;
    for (size_t i = 0; i < ds.size();) {  // a release and a post at one tick: the buffer posted takes the room freed
      const Tick tick = ds[i].first;
      for (; i < ds.size() && ds[i].first == tick; ++i) held += ds[i].second;
      if (out[d].steps.empty() || out[d].steps.back().second != held) out[d].steps.emplace_back(tick, held);
    }
  }
  return out;
}

}  // namespace ppsim

#include "ppsim/memory.h"

#include <algorithm>

namespace ppsim {
namespace {

struct Event {
  Tick tick;
  int delta;
};

// Sorts +1/-1 events into an exact step series (one step per distinct tick).
StepSeries ToSeries(std::vector<Event>& events) {
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.tick < b.tick; });
  StepSeries series;
  std::int64_t value = 0;
  for (size_t i = 0; i < events.size();) {
    const Tick tick = events[i].tick;
    for (; i < events.size() && events[i].tick == tick; ++i) value += events[i].delta;
    if (!series.steps.empty() && series.steps.back().second == value) continue;
    series.steps.emplace_back(tick, value);
  }
  return series;
}

}  // namespace

std::int64_t StepSeries::At(Tick t) const {
  auto it = std::upper_bound(steps.begin(), steps.end(), t,
                             [](Tick x, const std::pair<Tick, std::int64_t>& s) { return x < s.first; });
  return it == steps.begin() ? 0 : std::prev(it)->second;
}

std::int64_t StepSeries::Peak() const {
  std::int64_t peak = 0;
  for (const auto& [tick, value] : steps) peak = std::max(peak, value);
  return peak;
}

HoldInterval HeldInterval(const Timeline& t, HoldMode hold, int microbatch, int stage) {
  const OpSpace& space = t.schedule.space;
  const OpId f = space.Id(OpKind::kF, microbatch, stage);
  const OpId b = space.Id(OpKind::kB, microbatch, stage);
  if (hold == HoldMode::kHeld) return {t.end[f], t.start[b]};
  Tick to = t.end[b];
  if (t.schedule.split_backward) to = std::max(to, t.end[space.Id(OpKind::kW, microbatch, stage)]);
  return {t.start[f], to};
}

Activations MeasureActivations(const Timeline& t, HoldMode hold) {
  const Problem& p = t.problem;
  const int S = t.schedule.space.stages();
  const int M = t.schedule.space.microbatches();
  std::vector<std::vector<Event>> events(p.P);
  std::vector<Event> all;
  all.reserve(static_cast<size_t>(2) * S * M);
  for (int s = 0; s < S; ++s) {
    std::vector<Event>& dev = events[p.DeviceOf(s)];
    for (int m = 0; m < M; ++m) {
      if (!t.schedule.space.Exists(m, s)) continue;
      const HoldInterval iv = HeldInterval(t, hold, m, s);
      if (iv.to <= iv.from) continue;  // held for no tick at all
      dev.push_back({iv.from, +1});
      dev.push_back({iv.to, -1});
      all.push_back({iv.from, +1});
      all.push_back({iv.to, -1});
    }
  }
  Activations a;
  for (int d = 0; d < p.P; ++d) {
    a.per_device.push_back(ToSeries(events[d]));
    a.peak_per_device.push_back(a.per_device.back().Peak());
  }
  a.cluster = ToSeries(all);
  a.peak = a.cluster.Peak();
  return a;
}

}  // namespace ppsim

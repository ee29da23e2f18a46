// Activation measurement in O(ops), with no sort.
//
// Each op carries at most one activation event (+1 where its stage's set
// becomes held, -1 where it is freed), and that event's tick lies inside the
// op's own [start, end]. A device runs its ops one after another, so walking
// its queue yields its events in nondecreasing tick order: the per-device
// series needs no sort. The cluster series is the P-way merge of those
// streams: counts per tick, gathered in the same pass, when the makespan is small next to the
// number of ops (the usual case), else a heap merge of the P sorted streams.
#include "ppsim/memory.h"

#include <algorithm>
#include <queue>

#include "device_walk.h"
#include "fast_div.h"

namespace ppsim {
namespace {

struct Event {
  Tick tick;
  int delta;
};

// Turns events of nondecreasing tick into the exact step series: one step
// per distinct tick, dropped when the value does not change (the first step
// is always kept), and the peak over those values.
class StepBuilder {
 public:
  explicit StepBuilder(StepSeries* series) : series_(series) {}
  void Add(Tick tick, std::int64_t delta) {
    if (open_ && tick != tick_) Flush();
    tick_ = tick;
    open_ = true;
    value_ += delta;
  }
  // Ends the group of events at the current tick.
  void Flush() {
    if (!open_) return;
    open_ = false;
    peak_ = std::max(peak_, value_);
    if (series_ && (series_->steps.empty() || series_->steps.back().second != value_))
      series_->steps.emplace_back(tick_, value_);
  }
  std::int64_t peak() const { return peak_; }

 private:
  StepSeries* series_;
  Tick tick_ = 0;
  std::int64_t value_ = 0;
  std::int64_t peak_ = 0;
  bool open_ = false;
};

// The one activation event an op carries, if any (see HeldInterval).
class EventOf {
 public:
  EventOf(const Timeline& t, HoldMode hold)
      : stored_(t.stored_start.empty() ? nullptr : t.stored_start.data()),
        end_(t.end.data()),
        S_(t.schedule.space.stages()),
        two_m_(2 * t.schedule.space.microbatches()),
        by_s_(static_cast<std::uint32_t>(S_)),
        held_(hold == HoldMode::kHeld),
        split_(t.schedule.split_backward) {
    for (OpKind kind : {OpKind::kF, OpKind::kB, OpKind::kW})
      for (int s = 0; s < S_; ++s) cost_.push_back(t.problem.costs.Of(kind, s));
    if (!t.problem.empty_stages.empty()) {
      empty_.assign(S_, 0);
      for (int s : t.problem.empty_stages) empty_[s] = 1;
    }
  }

  bool operator()(OpId id, Event& ev) const {
    const OpId q = static_cast<OpId>(by_s_.Div(static_cast<std::uint32_t>(id)));
    const OpId stage = id - q * S_;
    if (!empty_.empty() && empty_[stage]) [[unlikely]] return false;  // a stage with no layer holds nothing
    if (q >= two_m_) {  // W(m,s): frees the set under the allocator view
      if (held_) return false;
      const OpId b = (2 * (q - two_m_) + 1) * S_ + stage, f = b - S_;
      ev = {std::max(end_[b], end_[id]), -1};
      return ev.tick > Start(f, 0, stage);
    }
    const bool forward = (q & 1) == 0;
    const OpId f = forward ? id : id - S_, b = f + S_;
    if (held_) {  // [end F, start B)
      const Tick b_start = Start(b, 1, stage);
      if (b_start <= end_[f]) return false;
      ev = forward ? Event{end_[f], +1} : Event{b_start, -1};
      return true;
    }
    // With a split backward, W(m,s) frees the set; a full backward (no W
    // placed: its end is -1) frees it at its own end.
    const Tick w_end = split_ ? end_[two_m_ * S_ + (q >> 1) * S_ + stage] : -1;
    const Tick f_start = Start(f, 0, stage);
    if (forward) {
      ev = {f_start, +1};
      return std::max(end_[b], w_end) > f_start;
    }
    if (w_end >= 0) return false;
    ev = {end_[b], -1};
    return end_[b] > f_start;
  }

 private:
  // The start of `id`, an op that exists, of kind `kind` (0 F, 1 B) at `stage`.
  Tick Start(OpId id, int kind, OpId stage) const {
    return stored_ ? stored_[id] : end_[id] - cost_[kind * S_ + stage];
  }

  const Tick* stored_;  // Timeline::stored_start, or null: end - cost_
  const Tick* end_;
  OpId S_;
  OpId two_m_;
  FastDiv by_s_;
  bool held_;
  bool split_;
  std::vector<Tick> cost_;  // Costs::Of by kind * S + stage
  std::vector<std::uint8_t> empty_;  // by stage: 1 = no layer (Problem::empty_stages); empty = none
};

// A slot's events in tick order (an overlapped pair may carry two).
int SlotEvents(const EventOf& event_of, const Slot& slot, Event out[2]) {
  int n = event_of(slot.op, out[0]) ? 1 : 0;
  if (slot.pair() && event_of(slot.overlapped, out[n])) ++n;
  if (n == 2 && out[1].tick < out[0].tick) std::swap(out[0], out[1]);
  return n;
}

// Events counted per tick, for the cluster series in O(ops + makespan).
struct TickCounts {
  std::vector<std::int64_t> delta;
  std::vector<std::uint8_t> touched;
  void Add(const Event& ev) {
    delta[ev.tick] += ev.delta;
    touched[ev.tick] = 1;
  }
  void Replay(StepBuilder& cluster) const {
    for (size_t tick = 0; tick < delta.size(); ++tick)
      if (touched[tick]) cluster.Add(static_cast<Tick>(tick), delta[tick]);
    cluster.Flush();
  }
};

// Cluster series by a heap merge of the devices' sorted streams: O(ops log P).
void ClusterByMerge(const Timeline& t, const EventOf& event_of, StepBuilder& cluster) {
  const auto& devices = t.schedule.devices;
  std::vector<Event> events;
  std::vector<size_t> from(devices.size() + 1, 0);
  Event ev[2];
  for (size_t d = 0; d < devices.size(); ++d) {
    for (const Slot& slot : devices[d])
      for (int k = 0, n = SlotEvents(event_of, slot, ev); k < n; ++k) events.push_back(ev[k]);
    from[d + 1] = events.size();
  }
  using Head = std::pair<Tick, size_t>;  // (tick, device)
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  std::vector<size_t> at(from.begin(), from.end() - 1);
  for (size_t d = 0; d < devices.size(); ++d)
    if (at[d] < from[d + 1]) heads.push({events[at[d]].tick, d});
  while (!heads.empty()) {
    const size_t d = heads.top().second;
    heads.pop();
    cluster.Add(events[at[d]].tick, events[at[d]].delta);
    if (++at[d] < from[d + 1]) heads.push({events[at[d]].tick, d});
  }
  cluster.Flush();
}

// With recompute (recompute.h) a stage with R counts its set from R's
// start, and when resident also while F runs: two intervals for one set,
// so the events are gathered per (m, s) and sorted. R is off the chain
// placer's path and so is this.
Activations MeasureWithRecompute(const Timeline& t, HoldMode hold, bool series) {
  const OpSpace& space = t.schedule.space;
  const Problem& p = t.problem;
  const bool held = hold == HoldMode::kHeld;
  std::vector<std::vector<Event>> events(t.schedule.devices.size());
  std::vector<Event> all;
  for (int s = 0; s < space.stages(); ++s) {
    std::vector<Event>& ev = events[p.DeviceOf(s)];
    auto add = [&](Tick from, Tick to) {
      if (to <= from) return;
      ev.push_back({from, +1});
      ev.push_back({to, -1});
    };
    for (int m = 0; m < space.microbatches(); ++m) {
      const OpId f = space.Id(OpKind::kF, m, s), b = space.Id(OpKind::kB, m, s), r = space.Id(OpKind::kR, m, s);
      if (!t.Has(f) || !t.Has(b)) continue;
      Tick to = held ? t.Start(b) : t.end[b];
      if (!held && t.schedule.split_backward) to = std::max(to, t.end[space.Id(OpKind::kW, m, s)]);
      if (!t.Has(r)) {
        add(held ? t.end[f] : t.Start(f), to);
        continue;
      }
      if (!held) add(t.Start(f), t.end[f]);
      add(t.Start(r), to);
    }
  }
  Activations a;
  if (series) a.per_device.resize(events.size());
  for (size_t d = 0; d < events.size(); ++d) {
    std::sort(events[d].begin(), events[d].end(), [](const Event& x, const Event& y) { return x.tick < y.tick; });
    StepBuilder device(series ? &a.per_device[d] : nullptr);
    for (const Event& e : events[d]) device.Add(e.tick, e.delta);
    device.Flush();
    a.peak_per_device.push_back(device.peak());
    all.insert(all.end(), events[d].begin(), events[d].end());
  }
  std::sort(all.begin(), all.end(), [](const Event& x, const Event& y) { return x.tick < y.tick; });
  StepBuilder cluster(series ? &a.cluster : nullptr);
  for (const Event& e : all) cluster.Add(e.tick, e.delta);
  cluster.Flush();
  a.peak = cluster.peak();
  return a;
}

}  // namespace

namespace {

// The series of `combine` over every series' value, tick by tick (at each tick where any steps).
template <typename Combine>  // std::int64_t(std::int64_t so_far, std::int64_t value)
StepSeries Pointwise(const std::vector<StepSeries>& series, Combine combine) {
  std::vector<Tick> ticks;
  for (const StepSeries& s : series)
    for (const auto& [t, v] : s.steps) ticks.push_back(t);
  std::sort(ticks.begin(), ticks.end());
  ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  StepSeries out;
  std::vector<size_t> at(series.size(), 0);  // each series' step in force
  std::vector<std::int64_t> value(series.size(), 0);
  for (Tick t : ticks) {
    std::int64_t so_far = 0;
    for (size_t d = 0; d < series.size(); ++d) {
      const auto& steps = series[d].steps;
      while (at[d] < steps.size() && steps[at[d]].first <= t) value[d] = steps[at[d]++].second;
      so_far = combine(so_far, value[d]);
    }
    if (out.steps.empty() || out.steps.back().second != so_far) out.steps.emplace_back(t, so_far);
  }
  return out;
}

}  // namespace

StepSeries FullestDevice(const std::vector<StepSeries>& per_device) {
  return Pointwise(per_device, [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
}

StepSeries SumOf(const std::vector<StepSeries>& series) {
  return Pointwise(series, [](std::int64_t a, std::int64_t b) { return a + b; });
}

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
  if (space.recompute() && t.Has(space.Id(OpKind::kR, microbatch, stage))) {  // the full set, from R (recompute.h)
    const OpId r = space.Id(OpKind::kR, microbatch, stage);
    if (hold == HoldMode::kHeld) return {t.Start(r), t.Start(b)};
    Tick to = t.end[b];
    if (t.schedule.split_backward) to = std::max(to, t.end[space.Id(OpKind::kW, microbatch, stage)]);
    return {t.Start(r), to};
  }
  if (hold == HoldMode::kHeld) return {t.end[f], t.Start(b)};
  Tick to = t.end[b];
  // A split backward frees the rest at the end of W; a full one has no W (end -1).
  if (t.schedule.split_backward) to = std::max(to, t.end[space.Id(OpKind::kW, microbatch, stage)]);
  return {t.Start(f), to};
}

Activations MeasureActivations(const Timeline& t, HoldMode hold, bool series) {
  if (t.schedule.space.recompute()) [[unlikely]] return MeasureWithRecompute(t, hold, series);
  const EventOf event_of(t, hold);
  const auto& devices = t.schedule.devices;
  Activations a;
  if (series) a.per_device.resize(devices.size());
  a.peak_per_device.resize(devices.size());
  // Count per tick in the same pass when the makespan is small next to the
  // number of ops (each op carries at most one event); else merge after.
  const bool by_tick = t.makespan <= 2 * t.schedule.op_count() + 65536;
  TickCounts counts;
  if (by_tick) {
    counts.delta.assign(static_cast<size_t>(t.makespan) + 1, 0);
    counts.touched.assign(counts.delta.size(), 0);
  }
  std::vector<StepBuilder> device;
  device.reserve(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) device.emplace_back(series ? &a.per_device[d] : nullptr);
  Event ev[2];
  WalkDevicesBlocked(devices, [&](int d, const Slot& slot) {
    for (int k = 0, n = SlotEvents(event_of, slot, ev); k < n; ++k) {
      device[d].Add(ev[k].tick, ev[k].delta);
      if (by_tick) counts.Add(ev[k]);
    }
  });
  for (size_t d = 0; d < devices.size(); ++d) {
    device[d].Flush();
    a.peak_per_device[d] = device[d].peak();
  }
  StepBuilder cluster(series ? &a.cluster : nullptr);
  if (by_tick)
    counts.Replay(cluster);
  else
    ClusterByMerge(t, event_of, cluster);
  a.peak = cluster.peak();
  return a;
}

}  // namespace ppsim

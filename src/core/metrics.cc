#include "ppsim/metrics.h"

#include <algorithm>

#include "device_walk.h"
#include "fast_div.h"
#include "ppsim/comm_run.h"
#include "ppsim/memory_bytes.h"

namespace ppsim {
namespace {

// What Measure needs about each op's (kind, stage) row: the device of its
// one dependency (for transfers) and its cost (for a start not stored:
// timeline.h). The dependency of every op in a row lives on one device, so a
// table of rows replaces a decode of the dependency per op.
class Rows {
 public:
  Rows(const Problem& p, const OpSpace& space)
      : S_(space.stages()), two_m_(2 * space.microbatches()), by_s_(static_cast<std::uint32_t>(S_)) {
    // Row k*S+s holds the device of (kind k, stage s)'s dependency, -1 for none.
    dep_device_.assign(static_cast<size_t>(3) * S_, -1);
    for (int s = 0; s < S_; ++s) {
      if (!space.IsFirstStage(s)) dep_device_[s] = p.DeviceOf(s - 1);
      dep_device_[S_ + s] = space.IsLastStage(s) ? p.DeviceOf(s) : p.DeviceOf(s + 1);
      dep_device_[2 * S_ + s] = p.DeviceOf(s);
    }
    for (OpKind kind : {OpKind::kF, OpKind::kB, OpKind::kW})
      for (int s = 0; s < S_; ++s) cost_.push_back(p.costs.Of(kind, s));
  }
  int Of(OpId id) const {
    const OpId q = static_cast<OpId>(by_s_.Div(static_cast<std::uint32_t>(id)));
    const int kind = q >= two_m_ ? 2 : (q & 1);
    return kind * S_ + (id - q * S_);
  }
  // Whether the op's dependency sits on another device than `device`.
  bool Crosses(int row, int device) const { return dep_device_[row] >= 0 && dep_device_[row] != device; }
  Tick Cost(int row) const { return cost_[row]; }

 private:
  OpId S_;
  OpId two_m_;
  FastDiv by_s_;
  std::vector<int> dep_device_;
  std::vector<Tick> cost_;
};

}  // namespace

// The communication's figures (comm_run.h) as metrics.
void AddCommFigures(const CommFigures& c, int P, Metrics& m) {
  m.comms = true;
  for (const Transfer& x : c.transfers) m.comm_time += x.end - x.start;
  for (int d = 0; d < P; ++d) {
    m.comm_time_per_device.push_back(c.devices[d].comm_time);
    m.exposed_comm_per_device.push_back(c.devices[d].exposed);
    m.peak_send_bytes_per_device.push_back(c.devices[d].peak_send_bytes);
  }
  for (const LinkUse& l : c.links) m.busiest_link = std::max(m.busiest_link, l.busy);
}

Metrics Measure(const Timeline& t, const MeasureOptions& options) {
  const Problem& p = t.problem;
  Metrics m;
  m.makespan = t.makespan;
  m.busy_per_device.assign(p.P, 0);
  m.span_per_device.assign(p.P, 0);
  const Rows rows(p, t.schedule.space);
  const Tick* const stored = t.stored_start.empty() ? nullptr : t.stored_start.data();
  const Tick* const end = t.end.data();
  std::int64_t transfers = 0;
  WalkDevicesBlocked(t.schedule.devices, [&](int d, const Slot& slot) {
    const int row = rows.Of(slot.op);
    // A pair counts once. Without stored starts no slot is compound: it lasts its row's cost.
    m.busy_per_device[d] += stored ? end[slot.op] - stored[slot.op] : rows.Cost(row);
    transfers += rows.Crosses(row, d);
    if (slot.pair()) transfers += rows.Crosses(rows.Of(slot.overlapped), d);
  });
  m.transfers = transfers;
  for (int d = 0; d < p.P; ++d) {
    const auto& queue = t.schedule.devices[d];
    if (!queue.empty()) m.span_per_device[d] = end[queue.back().op] - t.Start(queue.front().op);
    m.busy += m.busy_per_device[d];
  }
  m.idle = p.P * m.makespan - m.busy;
  for (int d = 0; d < p.P; ++d) {
    m.max_span_idle = std::max(m.max_span_idle, m.span_per_device[d] - m.busy_per_device[d]);
    m.max_device_idle = std::max(m.max_device_idle, m.makespan - m.busy_per_device[d]);
  }
  m.activations = MeasureActivations(t, p.hold, options.series);
  m.resident_peak_per_device = p.hold == HoldMode::kResident
                                   ? m.activations.peak_per_device
                                   : MeasureActivations(t, HoldMode::kResident, false).peak_per_device;
  if (t.comms) {
    AddCommFigures(*t.comms, p.P, m);
    if (options.series) m.send_bytes_per_device = SendBuffersHeld(*t.comms, p.P, p.comms.send_release, t.makespan);
  }
  if (t.schedule.space.recompute()) {  // R's time (recompute.h); starts are stored on this path
    m.recompute = true;
    m.recompute_time_per_device.assign(p.P, 0);
    for (int d = 0; d < p.P; ++d)
      for (const Slot& slot : t.schedule.devices[d])
        if (t.schedule.space.At(slot.op).kind == OpKind::kR) m.recompute_time_per_device[d] += end[slot.op] - t.Start(slot.op);
    for (Tick x : m.recompute_time_per_device) m.recompute_time += x;
  }
  if (p.memory.enabled() && ValidateMemoryModel(p.memory, p.stages()).ok()) {
    m.bytes = true;
    m.peak_bytes_per_device = MeasureMemoryBytes(t).peak_per_device;
  }
  return m;
}

std::string IdleSlotsText(const Metrics& m, int devices) {
  const Tick slots = devices * m.makespan;
  const auto percent = static_cast<Tick>(slots == 0 ? 0 : (__int128{200} * m.idle + slots) / (2 * __int128{slots}));  // half up
  return "idle " + std::to_string(m.idle) + " of " + std::to_string(slots) + " slots (" + std::to_string(percent) +
         "%)";
}

}  // namespace ppsim

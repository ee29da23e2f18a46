#include "ppsim/metrics.h"

#include <algorithm>

#include "ppsim/placement.h"

namespace ppsim {

Metrics Measure(const Timeline& t) {
  const Problem& p = t.problem;
  const OpSpace& space = t.schedule.space;
  Metrics m;
  m.makespan = t.makespan;
  m.busy_per_device.assign(p.P, 0);
  m.span_per_device.assign(p.P, 0);
  for (int d = 0; d < p.P; ++d) {
    const auto& queue = t.schedule.devices[d];
    if (queue.empty()) continue;
    for (const Slot& slot : queue) {
      m.busy_per_device[d] += t.end[slot.op] - t.start[slot.op];  // a pair counts once
      for (OpId id : {slot.op, slot.overlapped}) {
        if (id == kNoOp) continue;
        const OpId dep = DependencyOf(space, t.schedule.split_backward, id);
        if (dep != kNoOp && p.DeviceOf(space.At(dep).stage) != d) ++m.transfers;
      }
    }
    m.span_per_device[d] = t.end[queue.back().op] - t.start[queue.front().op];
    m.busy += m.busy_per_device[d];
  }
  m.idle = p.P * m.makespan - m.busy;
  for (int d = 0; d < p.P; ++d) {
    m.max_span_idle = std::max(m.max_span_idle, m.span_per_device[d] - m.busy_per_device[d]);
    m.max_device_idle = std::max(m.max_device_idle, m.makespan - m.busy_per_device[d]);
  }
  if (m.busy > 0) m.bubble_ratio = static_cast<double>(m.idle) / static_cast<double>(m.busy);
  if (m.makespan > 0) m.bubble_fraction = static_cast<double>(m.idle) / static_cast<double>(p.P * m.makespan);
  // Zero Bubble's bubble rate: the longest device span against the ideal
  // (that device's own busy time, i.e. M · Σ over its stages of F+B+W).
  int widest = 0;
  for (int d = 1; d < p.P; ++d)
    if (m.span_per_device[d] > m.span_per_device[widest] ||
        (m.span_per_device[d] == m.span_per_device[widest] && m.busy_per_device[d] > m.busy_per_device[widest]))
      widest = d;
  if (m.span_per_device[widest] > 0)
    m.bubble_rate_span = static_cast<double>(m.span_per_device[widest] - m.busy_per_device[widest]) /
                         static_cast<double>(m.span_per_device[widest]);
  m.activations = MeasureActivations(t, p.hold);
  m.peak_activations = m.activations.peak;
  m.peak_activations_per_device = m.activations.peak_per_device;
  return m;
}

}  // namespace ppsim

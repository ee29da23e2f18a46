#include "gauge_bytes.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "ppsim/memory_bytes.h"

namespace ppsim::render {
namespace {

// The send share of the fullest device at each tick: the send buffers of
// the device that holds the most then (the lowest such device), over every
// tick where either series of any device steps.
StepSeries SendOfFullest(const std::vector<StepSeries>& total, const std::vector<StepSeries>& send) {
  std::vector<Tick> ticks;
  for (const auto* series : {&total, &send})
    for (const StepSeries& s : *series)
      for (const auto& [t, v] : s.steps) ticks.push_back(t);
  std::sort(ticks.begin(), ticks.end());
  ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  StepSeries out;
  for (Tick t : ticks) {
    size_t fullest = 0;
    for (size_t d = 1; d < total.size(); ++d)
      if (total[d].At(t) > total[fullest].At(t)) fullest = d;
    const std::int64_t v = send.empty() ? 0 : send[fullest].At(t);
    if (out.steps.empty() ? v != 0 : out.steps.back().second != v) out.steps.emplace_back(t, v);
  }
  return out;
}

}  // namespace

bool GaugeInBytes(const std::vector<RunInput>& runs) {
  bool sends = false;
  for (const RunInput& r : runs) {
    if (r.run->timeline.problem.memory.activation_bytes.empty()) return false;
    for (std::int64_t b : r.run->metrics.peak_send_bytes_per_device) sends = sends || b > 0;
  }
  return sends;
}

LayoutInput BytesGaugeInput(const LayoutInput& in, std::vector<Metrics>& storage, std::vector<GaugeSend>& sends) {
  LayoutInput out = in;
  storage.reserve(in.runs.size());
  sends.reserve(in.runs.size());
  const bool fullest = in.gauge == GaugeMode::kFullest;
  for (const RunInput& r : in.runs) {
    const Timeline& t = r.run->timeline;
    Metrics m = r.run->metrics;
    const MemoryBytes bytes = MeasureMemoryBytes(t, fullest ? HoldMode::kResident : t.problem.hold);
    GaugeSend send;
    send.per_device = m.send_bytes_per_device;
    send.per_device.resize(t.problem.P);  // a run without comms holds no send buffers
    std::vector<StepSeries> total(t.problem.P);
    for (int d = 0; d < t.problem.P; ++d) total[d] = SumOf({bytes.activations_per_device[d], send.per_device[d]});
    m.activations.per_device = total;
    m.activations.peak_per_device.clear();
    for (const StepSeries& s : total) m.activations.peak_per_device.push_back(s.Peak());
    m.activations.cluster = fullest ? FullestDevice(total) : SumOf(total);
    m.activations.peak = m.activations.cluster.Peak();
    send.shown = fullest ? SendOfFullest(total, send.per_device) : SumOf(send.per_device);
    storage.push_back(std::move(m));
    sends.push_back(std::move(send));
  }
  for (size_t i = 0; i < out.runs.size(); ++i) {
    out.runs[i].shown = &storage[i];
    out.runs[i].send = &sends[i];
  }
  return out;
}

std::string ByteText(std::int64_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s + " " + kUnits[u];
}

}  // namespace ppsim::render

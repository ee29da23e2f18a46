// The numbers a run is judged by (docs/semantics.md; names are the JSON contract).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/memory.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct Metrics {
  Tick makespan = 0;  // last end - 0
  Tick busy = 0;      // sum of op durations (an overlapped pair counts once)
  Tick idle = 0;      // P * makespan - busy: the bubble in device-ticks
  // The ratios (bubble_ratio, bubble_fraction, bubble_rate_span) are not
  // stored: the metric table (metric_table.h) computes each exactly from
  // these integers, and every output reads them there.
  std::vector<Tick> busy_per_device;
  std::vector<Tick> span_per_device;  // last end - first start
  // The largest idle time inside one device's span (the Zero Bubble paper's
  // bubble) and of one device over the whole makespan (DualPipe's).
  Tick max_span_idle = 0;
  Tick max_device_idle = 0;
  std::int64_t transfers = 0;   // dependencies that cross devices
  // With the problem's HoldMode: the peaks in chunk sets, cluster-wide
  // (activations.peak; JSON's peak_activations) and of each device
  // (activations.peak_per_device), always; the time series if asked for.
  Activations activations;
  // What must fit on each device, counted the allocator's way whatever the
  // problem's HoldMode: chunk sets resident from the start of F to the end
  // of its B or W (HoldMode::kResident), the peak of each device.
  std::vector<std::int64_t> resident_peak_per_device;
  // With communication modelled (Timeline::comms; docs/comms.md), else
  // false and empty: every transfer's duration once (comm_time), and per
  // device the transfers it sends or receives, the time its compute stream
  // waits on communication, and the send buffers it holds at its peak; the
  // busiest directed link's busy ticks.
  bool comms = false;
  Tick comm_time = 0;
  std::vector<Tick> comm_time_per_device;
  std::vector<Tick> exposed_comm_per_device;
  std::vector<std::int64_t> peak_send_bytes_per_device;
  // The send buffers each device holds over the step, in bytes
  // (SendBuffersHeld, comm_run.h), when the series are asked for (MeasureOptions::series).
  std::vector<StepSeries> send_bytes_per_device;
  Tick busiest_link = 0;
  // With recompute (recompute.h), else false and empty: the R ops'
  // durations, summed, and per device.
  bool recompute = false;
  Tick recompute_time = 0;
  std::vector<Tick> recompute_time_per_device;
  // With a memory model in bytes (MemoryModel::enabled), else false and
  // empty: each device's peak bytes, static + activations over the
  // problem's HoldMode (MeasureMemoryBytes, memory_bytes.h).
  bool bytes = false;
  std::vector<std::int64_t> peak_bytes_per_device;
};

// What to compute beyond the scalar metrics and the peaks.
struct MeasureOptions {
  // Store the activation time series (Metrics::activations.per_device and
  // .cluster). Default true; the summary, compare and sweeps turn it off,
  // since only charts, --json and traces read the series.
  bool series = true;
};

// One pass over the ops for busy/span/transfers and one for activations.
Metrics Measure(const Timeline& timeline, const MeasureOptions& options = {});

// The bubble as a reader counts it: "idle 24 of 72 slots (33%)" — idle
// device-ticks of P·makespan, the share rounded to a whole percent (bubble
// fraction, not bubble_ratio, which reads as a share but is idle / busy).
std::string IdleSlotsText(const Metrics& metrics, int devices);

}  // namespace ppsim

// Chrome trace: a Timeline as Trace Event Format JSON ("JSON Object
// Format": {"traceEvents": [...]}) that Perfetto (ui.perfetto.dev) and
// chrome://tracing open. Per device one process (pid = device, named by a
// process_name metadata event, ordered by process_sort_index) with:
//   - one complete event (ph "X") per op — an overlapped pair is one event —
//     with ts and dur in microseconds (tick × tick_us), tid 0;
//   - a counter track (ph "C") "activations" of the microbatches held (the
//     timeline problem's HoldMode), and, when the problem's memory model has
//     bytes, "memory bytes" with two stacked series: "static" (parameters,
//     gradients, optimizer state) and "activations";
//   - flow arrows (ph "s" → ph "f", bp "e", one id per arrow) from an op to
//     the op on another device that waits on it. A flow event binds to the
//     slice enclosing its ts, so both ends sit at their slice's midpoint.
// With communication as ops (Timeline::comms), a process "links" (pid P)
// with one thread per directed link ("link d0 -> d1"; "#2" for a transfer
// overlapping one on its link) carrying each transfer, start to completion.
#pragma once

#include <cstdint>
#include <string>

#include "ppsim/io/json_out.h"
#include "ppsim/timeline.h"

namespace ppsim::io {

struct ChromeTraceOptions {
  // Microseconds per tick. Default 1000: one tick shows as 1 ms.
  std::int64_t tick_us = 1000;
};

// The whole file. Deterministic: the same timeline gives the same bytes.
// Times are exact (tick × tick_us in 128-bit arithmetic, never overflowing).
std::string ChromeTraceJson(const Timeline& timeline, const ChromeTraceOptions& options = {});
// The same, streamed into `out` as it is produced. Returns out.ok().
bool WriteChromeTrace(JsonOut& out, const Timeline& timeline, const ChromeTraceOptions& options = {});

}  // namespace ppsim::io

// One run's chart on the page (its caption and numbers: run_texts.h): the Gantt
// chart (device labels, op cells and their labels, bubble cells), the memory
// gauge on the page's shared scale, the tick axis and the "now" cursor.
#pragma once

#include <cstdint>
#include <vector>

#include "layout_builder.h"
#include "ppsim/render/layout.h"

namespace ppsim::render {

// One device's busy cycles [start, end), overlapped ops merged; by device, then time.
struct Interval {
  int device = 0;
  Tick start = 0, end = 0;
};
std::vector<Interval> BusyIntervals(const Timeline& t);

// Idle cycles of each device within [0, makespan): what its bubble cells count.
std::vector<Tick> IdlePerDevice(const Timeline& t);

// "14", "3.5": a gauge value in 1/den of a stage-set, in stage-sets.
std::string Sets(std::int64_t value, std::int64_t den);
// A gauge value as the gauge counts: Sets(value, den), or bytes ("1.5 MiB",
// ByteText) when the gauge counts bytes (DisplayList::gauge_bytes).
std::string GaugeText(std::int64_t value, std::int64_t den, bool bytes);

// Everything below the caption. `gauge_scale` is every gauge's full height
// in 1/`gauge_den` of a stage-set (DisplayList::gauge_scale).
void LayoutChart(Builder& b, const Frame& f, const RunGeometry& g, const ChartStyle& style, const RunInput& run,
                 int index, std::int64_t gauge_scale, std::int64_t gauge_den);

}  // namespace ppsim::render

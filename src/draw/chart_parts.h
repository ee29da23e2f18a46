// The parts of one run's chart (chart_layout.h), in the files named after
// what they lay out: chart_cells.cc the Gantt cells (one per op and per idle
// cycle, or aggregated strips), chart_gauge.cc the memory gauge, and
// chart_comm.cc the communication lanes, chart_layout.cc the labels, axis, cursor, finish lines and idle counts
// around them. Each part draws from the same per-chart context, Chart.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "chart_layout.h"
#include "layout_builder.h"

namespace ppsim::render::chart {

using Align = Builder::Align;

// Which of a device's chunks an op belongs to: 0, 1, ... v-1 (for the two
// V/DualPipe placements, 1 is the stage on the way back).
inline int ChunkOf(const PlacedOp& op, const Problem& p) {
  if (p.placement == Placement::kMap)  // its place among the device's stages
    return static_cast<int>(std::count(p.stage_device.begin(), p.stage_device.begin() + op.stage, op.device));
  return p.placement == Placement::kLoop ? op.stage / p.P : (op.stage < p.P ? 0 : 1);
}

// "F3"; with chunks "F3·c1", so that the chunk never rests on a shade alone;
// with sequence slices "F3.1": slice 1 of microbatch 3, one part of its cell.
inline std::string OpLabel(const PlacedOp& op, const Problem& p) {
  std::string s(1, KindChar(op.kind));
  s += std::to_string(op.microbatch);
  if (p.slices > 1) s += "." + std::to_string(op.slice);
  if (p.v > 1) s += "\u00B7c" + std::to_string(ChunkOf(op, p));
  return s;
}

// Smallest step from 1, 2, 5, 10, 20, 50, ... with step * unit >= need.
inline std::int64_t NiceStep(double need, double unit) {
  static const int kMantissa[] = {1, 2, 5};
  for (std::int64_t decade = 1;; decade *= 10) {
    for (int m : kMantissa) {
      if (m * decade * unit >= need) return m * decade;
    }
    if (decade > (std::int64_t{1} << 50)) return decade;
  }
}

// Smallest step from 1, 2, 4, 8, ... with step * unit >= need (device rows).
inline int PowerStep(double need, double unit) {
  int step = 1;
  while (step * unit < need && step < (1 << 20)) step *= 2;
  return step;
}

// The per-tick context every part of one chart needs.
struct Chart {
  Builder& b;
  const Frame& f;
  const RunGeometry& g;
  const ChartStyle& style;
  const Timeline& t;
  const Metrics& m;
  int run;
  const GaugeSend* send = nullptr;  // the gauge counts bytes: the send buffers' share (RunInput::send)
  int Rows() const { return (t.problem.P + f.rows_per - 1) / f.rows_per; }
  // A row's pitch: its compute row and, when comms are drawn, its lane under it.
  int Pitch() const { return g.row_h + g.lane_h; }
  double RowY(int row) const { return g.gantt_y + row * Pitch(); }
  // The cell of ticks [a, e) on row d, inside the gaps.
  Box Cell(Tick a, Tick e, double top, double h) const {
    const double x = f.X(a), x1 = f.X(e);
    return {x + style.gx, top + style.gy, std::max(1.0, x1 - x - 2 * style.gx), std::max(1.0, h - 2 * style.gy)};
  }
};

// chart_cells.cc: an op's cell with its label, one bubble cell per idle
// device-cycle, or the aggregated strips when cycles or devices are under two
// pixels where the picture is viewed.
void OpCells(const Chart& c, const std::vector<PlacedOp>& ops);
void BubbleCells(const Chart& c, const std::vector<PlacedOp>& ops);
void ZeroCells(const Chart& c, const std::vector<PlacedOp>& ops);  // ops of no duration, as thin marks
void StripCells(const Chart& c, const std::vector<PlacedOp>& ops);

// chart_comm.cc: with a comm run (Timeline::comms), each device's lane of
// transfers under its row (sends in the lane's top half, receives in its
// bottom half) and the waits on transfers marked on the compute rows.
void CommLanes(const Chart& c);

// chart_gauge.cc: the gauge's background and the cluster's or each device's
// gauge on the page's shared scale (1/den stage-sets).
void Gauge(const Chart& c, std::int64_t scale, std::int64_t den);

}  // namespace ppsim::render::chart

// The Gantt cells of one chart (chart_parts.h).
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chart_parts.h"
#include "color_util.h"
#include "ppsim/cost_scale.h"
#include "ppsim/rational.h"

namespace ppsim::render::chart {
namespace {

// The rectangle of `op` with what identifies it (run, device, ticks, kind,
// microbatch, stage, chunk); the caller sets when it appears.
Item& OpRect(const Chart& c, const PlacedOp& op, const Box& box, Color color) {
  Item& it = c.b.Rect(Role::kOp, box, color);
  it.run = c.run;
  it.device = op.device;
  it.tick0 = op.start;
  it.tick1 = op.end;
  it.op_kind = KindChar(op.kind);
  it.microbatch = op.microbatch;
  it.stage = op.stage;
  if (c.t.problem.v > 1) it.chunk = ChunkOf(op, c.t.problem);
  return it;
}

}  // namespace

void OpCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  // Each label is as large as the narrowest cell of its duration allows (cell
  // edges round to whole pixels, so equal cells differ by one: one decision
  // for all of them keeps identical cells identical), up to the chart's size,
  // and dropped rather than drawn under the smallest legible size.
  auto half = [](const PlacedOp& op) { return op.overlap >= 0; };
  std::map<std::pair<Tick, bool>, double> narrowest;  // (duration, in a pair's half) -> px
  for (const PlacedOp& op : ops) {
    if (op.end == op.start) continue;  // ZeroCells
    const Box cell = c.Cell(op.start, op.end, 0, c.g.row_h);
    auto [at, fresh] = narrowest.try_emplace({op.end - op.start, half(op)}, cell.w);
    if (!fresh) at->second = std::min(at->second, cell.w);
  }
  for (const PlacedOp& op : ops) {
    if (op.end == op.start) continue;  // ZeroCells
    double top = c.RowY(op.device), h = c.g.row_h;
    if (half(op)) {  // an overlapped F+B pair: F in the top half, B in the bottom half
      h = c.g.row_h / 2.0;
      if (op.kind != OpKind::kF) top += h;
    }
    const Box cell = c.Cell(op.start, op.end, top, h);
    const double room = narrowest.at({op.end - op.start, half(op)});
    const bool whole = op.kind == OpKind::kB && (op.full || !c.t.schedule.split_backward);
    const Color color = OpFill(op.kind, ChunkOf(op, c.t.problem), c.t.problem.v);
    Item& it = OpRect(c, op, cell, color);
    it.from = op.start + 1;
    if (op.end - op.start > 1) {
      it.grow_from = op.start;
      it.grow_ticks = op.end - op.start;
    }
    // A whole backward computes the weight gradient too: it says so with a
    // W-coloured bar along its top, so that it never passes for an
    // input-gradient B (the legend lists it).
    const double whole_bar = std::floor(cell.h / 6);
    if (whole && whole_bar >= 2) {
      const Item cell_item = it;  // `it` dangles once another item is added
      Item& mark = c.b.Rect(Role::kWholeMark, {cell.x, cell.y, cell.w, whole_bar}, palette::kWeightGrad);
      mark.run = c.run;
      mark.device = op.device;
      mark.tick0 = op.start;
      mark.tick1 = op.end;
      mark.from = cell_item.from;
      mark.grow_from = cell_item.grow_from;
      mark.grow_ticks = cell_item.grow_ticks;
    }
    const std::string text = OpLabel(op, c.t.problem);
    const double px = std::min(c.style.cell_px, std::floor(cell.h * 0.62));
    const double fit = px < c.b.MinPx() ? 0 : c.b.Fit(text, px, false, room - 2);
    const TextSize size = fit > 0 ? c.b.Measure(text, fit, false) : TextSize{};
    if (fit <= 0 || size.w + 2 > room || size.h > cell.h) {
      // No room for "·c1": a later chunk still shows by more than its shade,
      // a dark bar along the cell's bottom edge (the legend says so).
      const int chunk = c.t.problem.v > 1 ? ChunkOf(op, c.t.problem) : 0;
      const double bar = std::floor(cell.h / 5);
      if (chunk > 0 && bar >= 2) {
        Item& mark = c.b.Rect(Role::kChunkMark, {cell.x, cell.bottom() - bar, cell.w, bar},
                              Mix(color, palette::kText, 0.65));
        mark.run = c.run;
        mark.device = op.device;
        mark.tick0 = op.start;
        mark.tick1 = op.end;
        mark.chunk = chunk;
        mark.from = op.start + 1;
        mark.grow_from = op.start;
        mark.grow_ticks = op.end - op.start > 1 ? op.end - op.start : 0;
      }
      continue;
    }
    Item& lab = c.b.Text(Role::kOpLabel, text, cell.x + cell.w / 2, cell.y + (cell.h - size.h) / 2, fit, false,
                         TextOn(color), Align::kCenter);
    lab.clip = cell;
    lab.run = c.run;
    lab.device = op.device;
    lab.tick0 = op.start;
    lab.tick1 = op.end;
    lab.op_kind = KindChar(op.kind);
    lab.microbatch = op.microbatch;
    lab.stage = op.stage;
    lab.from = op.end;  // once the cell is complete
  }
}

// An op of no duration (a stage with no layer, Problem::empty_stages) keeps
// its place and passes data on: a thin mark of its kind's colour at its
// tick, over the bubble cells around it, so that it is seen but never
// passes for work.
void ZeroCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  for (const PlacedOp& op : ops) {
    if (op.end != op.start) continue;
    const double w = 3, x = std::round(c.f.X(op.start) - w / 2);
    double top = c.RowY(op.device) + c.style.gy, h = c.g.row_h - 2 * c.style.gy;
    if (op.overlap >= 0) {
      h = h / 2.0;
      if (op.kind != OpKind::kF) top += h;
    }
    OpRect(c, op, {x, top, w, std::max(1.0, h)}, OpFill(op.kind, ChunkOf(op, c.t.problem), c.t.problem.v)).from =
        op.start;
  }
}

// One cell per idle device-cycle within [0, makespan), so that the bubble can
// be counted; with ns ticks (a measured run) one cell per idle gap.
void BubbleCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  std::vector<std::vector<std::pair<Tick, Tick>>> busy(c.t.problem.P);
  for (const PlacedOp& op : ops) busy[op.device].emplace_back(op.start, op.end);
  for (int d = 0; d < c.t.problem.P; ++d) {
    std::sort(busy[d].begin(), busy[d].end());
    auto idle = [&](Tick a, Tick e) {
      if (c.f.ns && a < e) {  // ns ticks: one cell per idle gap
        Item& it = c.b.Rect(Role::kBubble, c.Cell(a, e, c.RowY(d), c.g.row_h), palette::kBubble);
        it.hatched = it.box.w >= 6 && it.box.h >= 6;
        it.run = c.run;
        it.device = d;
        it.tick0 = a;
        it.tick1 = e;
        it.from = a + 1;
        return;
      }
      for (Tick k = a; k < e; ++k) {
        Item& it = c.b.Rect(Role::kBubble, c.Cell(k, k + 1, c.RowY(d), c.g.row_h), palette::kBubble);
        it.hatched = it.box.w >= 6 && it.box.h >= 6;
        it.run = c.run;
        it.device = d;
        it.tick0 = k;
        it.tick1 = k + 1;
        it.from = k + 1;
      }
    };
    Tick cursor = 0;
    for (const auto& [s, e] : busy[d]) {
      idle(cursor, s);
      cursor = std::max(cursor, e);
    }
    idle(cursor, c.t.makespan);
  }
}

// Aggregated cells, when a cycle or a device is under two pixels where the
// picture is viewed: each cell of f.agg cycles x f.rows_per devices is the
// bubble when idle for half its device-cycles or more, else coloured by the
// kinds done in it (one kind's colour, or KindsMix where several are, which
// the legend lists; item.value keeps the kinds, bit 0 F, 1 B, 2 W, 3 R);
// neighbours in a row that look the same are one rectangle, growing over its
// cycles. No other colour is drawn: none a legend would lack.
void StripCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  const int rows = c.Rows();
  const Tick ms = c.t.makespan;
  const Tick strips = (ms + c.f.agg - 1) / c.f.agg;
  struct Count {
    std::int64_t n[4] = {0, 0, 0, 0};  // device-cycles of F, B, W, R
  };
  std::vector<Count> counts(static_cast<size_t>(rows) * strips);
  for (const PlacedOp& op : ops) {
    const int row = op.device / c.f.rows_per;
    for (Tick x = op.start; x < op.end; ++x) ++counts[row * strips + x / c.f.agg].n[static_cast<int>(op.kind)];
  }
  for (int row = 0; row < rows; ++row) {
    const int devices = std::min(c.t.problem.P, (row + 1) * c.f.rows_per) - row * c.f.rows_per;
    // The kinds done in each strip as bits, 0 when it is idle half the time or more.
    auto key = [&](Tick s) {
      const Count& k = counts[row * strips + s];
      const Tick cycles = std::min<Tick>(c.f.agg, ms - s * c.f.agg);
      const std::int64_t total = devices * cycles, busy = std::min(total, k.n[0] + k.n[1] + k.n[2] + k.n[3]);
      return 2 * busy <= total ? 0 : (k.n[0] > 0) | (k.n[1] > 0) << 1 | (k.n[2] > 0) << 2 | (k.n[3] > 0) << 3;
    };
    for (Tick s0 = 0; s0 < strips;) {
      const int k0 = key(s0);
      Tick s1 = s0 + 1;
      while (s1 < strips && key(s1) == k0) ++s1;
      const Tick a = s0 * c.f.agg, e = std::min(ms, s1 * c.f.agg);
      const Color color = k0 == 0 ? palette::kBubble : KindsMix(k0);
      Item& it = c.b.Rect(k0 == 0 ? Role::kBubble : Role::kOp, c.Cell(a, e, c.RowY(row), c.g.row_h), color);
      it.value = k0;
      it.hatched = k0 == 0 && it.box.w >= 6 && it.box.h >= 6;
      it.run = c.run;
      it.device = row * c.f.rows_per;
      it.tick0 = a;
      it.tick1 = e;
      it.op_kind = 'A';
      it.from = a + 1;
      if (e - a > 1) {
        it.grow_from = a;
        it.grow_ticks = e - a;
      }
      s0 = s1;
    }
  }
}

}  // namespace ppsim::render::chart

#include "chart_layout.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "color_util.h"

namespace ppsim::render {
namespace {

using Align = Builder::Align;

std::string Ratio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", r);
  return buf;
}

std::string OpLabel(const PlacedOp& op) {
  std::string s(1, KindChar(op.kind));
  s += std::to_string(op.microbatch);
  return s;
}

Color KindColor(OpKind kind) {
  switch (kind) {
    case OpKind::kF: return palette::kForward;
    case OpKind::kB: return palette::kBackward;
    case OpKind::kW: return palette::kWeightGrad;
  }
  return palette::kForward;
}

// Smallest step from 1, 2, 5, 10, 20, 50, ... with step * unit >= need.
std::int64_t NiceStep(double need, double unit) {
  static const int kMantissa[] = {1, 2, 5};
  for (std::int64_t decade = 1;; decade *= 10) {
    for (int m : kMantissa) {
      if (m * decade * unit >= need) return m * decade;
    }
    if (decade > (std::int64_t{1} << 50)) return decade;
  }
}

// Smallest step from 1, 2, 4, 8, ... with step * unit >= need (device rows).
int PowerStep(double need, double unit) {
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
  double RowY(int d) const { return g.gantt_y + d * g.row_h; }
  // The cell of ticks [a, e) on row d, inside the gaps.
  Box Cell(Tick a, Tick e, double top, double h) const {
    const double x = f.X(a), x1 = f.X(e);
    return {x + style.gx, top + style.gy, std::max(1.0, x1 - x - 2 * style.gx), std::max(1.0, h - 2 * style.gy)};
  }
};

void DeviceLabels(const Chart& c) {
  const double lh = c.b.LineHeight(c.style.label_px);
  const int step = PowerStep(lh * 1.05, c.g.row_h);  // thinned so that labels never touch
  for (int d = 0; d < c.t.problem.P; d += step) {
    std::string name = "d";
    name += std::to_string(d);
    Item& it = c.b.Text(Role::kDeviceLabel, name, c.f.x0 - 0.5 * c.style.label_px, c.RowY(d) + (c.g.row_h - lh) / 2,
                        c.style.label_px, false, palette::kMutedText, Align::kRight);
    it.run = c.run;
    it.device = d;
  }
}

void OpCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  // A cell gets a label iff the widest label of the run fits it: same-size
  // cells are all labelled or none are.
  double widest = 0;
  for (const PlacedOp& op : ops) widest = std::max(widest, c.b.Measure(OpLabel(op), c.style.cell_px, false).w);
  const double label_h = c.b.LineHeight(c.style.cell_px);
  const int P = c.t.problem.P;
  for (const PlacedOp& op : ops) {
    double top = c.RowY(op.device), h = c.g.row_h;
    if (op.overlap >= 0) {  // an overlapped F+B pair: F in the top half, B in the bottom half
      h = c.g.row_h / 2.0;
      if (op.kind != OpKind::kF) top += h;
    }
    const Box cell = c.Cell(op.start, op.end, top, h);
    const Color color = ChunkShade(KindColor(op.kind), op.stage / P, c.t.problem.v);
    Item& it = c.b.Rect(Role::kOp, cell, color);
    it.run = c.run;
    it.device = op.device;
    it.tick0 = op.start;
    it.tick1 = op.end;
    it.op_kind = KindChar(op.kind);
    it.microbatch = op.microbatch;
    it.stage = op.stage;
    it.from = op.start + 1;
    if (op.end - op.start > 1) {
      it.grow_from = op.start;
      it.grow_ticks = op.end - op.start;
    }
    if (widest + 2 > cell.w || label_h > cell.h) continue;
    Item& lab = c.b.Text(Role::kOpLabel, OpLabel(op), cell.x + cell.w / 2, cell.y + (cell.h - label_h) / 2,
                         c.style.cell_px, false, TextOn(color), Align::kCenter);
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

// One cell per idle device-cycle within [0, makespan), so that the bubble can be counted.
void BubbleCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  std::vector<std::vector<std::pair<Tick, Tick>>> busy(c.t.problem.P);
  for (const PlacedOp& op : ops) busy[op.device].emplace_back(op.start, op.end);
  for (int d = 0; d < c.t.problem.P; ++d) {
    std::sort(busy[d].begin(), busy[d].end());
    auto idle = [&](Tick a, Tick e) {
      for (Tick k = a; k < e; ++k) {
        Item& it = c.b.Rect(Role::kBubble, c.Cell(k, k + 1, c.RowY(d), c.g.row_h), palette::kBubble);
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

// One bar per tick, its height the activations held in that tick over the
// page's shared scale, and a line at this run's peak from the tick it is reached.
void Gauge(const Chart& c, std::int64_t gauge_scale) {
  const double bottom = c.g.gauge_y + c.g.gauge_h;
  const double scale = static_cast<double>(std::max<std::int64_t>(1, gauge_scale));
  const StepSeries& held = c.m.activations.cluster;
  c.b.Rect(Role::kGaugeBack, {c.f.x0, c.g.gauge_y, c.f.X(c.f.T) - c.f.x0, static_cast<double>(c.g.gauge_h)},
           palette::kGaugeBack)
      .run = c.run;
  Tick peak_tick = -1;
  for (Tick k = 0; k < c.t.makespan && peak_tick < 0; ++k) {
    if (held.At(k) == c.m.peak_activations) peak_tick = k;
  }
  if (peak_tick >= 0 && c.m.peak_activations > 0) {  // behind the bars
    const double y = bottom - std::round(static_cast<double>(c.m.peak_activations) / scale * c.g.gauge_h) + 0.5;
    Item& it = c.b.Line(Role::kPeakLine, c.f.x0, y, c.f.X(c.f.T), y, 1, Mix(palette::kHeld, palette::kText, 0.5));
    it.run = c.run;
    it.value = c.m.peak_activations;
    it.from = peak_tick + 1;
  }
  for (Tick k = 0; k < c.t.makespan; ++k) {
    const std::int64_t value = held.At(k);
    if (value <= 0) continue;
    const double h = std::round(static_cast<double>(value) / scale * c.g.gauge_h);
    const Box cell = c.Cell(k, k + 1, bottom - h, h + 2 * c.style.gy);
    Item& it = c.b.Rect(Role::kGaugeBar, {cell.x, bottom - h, cell.w, h}, palette::kHeld);
    it.run = c.run;
    it.tick0 = k;
    it.tick1 = k + 1;
    it.value = value;
    it.from = k + 1;
  }
  const double lh = c.b.LineHeight(c.style.label_px);
  c.b.Text(Role::kGaugeLabel, "held", c.f.x0 - 0.5 * c.style.label_px, c.g.gauge_y + (c.g.gauge_h - lh) / 2,
           c.style.label_px, false, palette::kMutedText, Align::kRight)
      .run = c.run;
}

// Tick numbers under the gauge, on a 1-2-5 step wide enough that they never touch.
void Axis(const Chart& c) {
  const double px = c.style.label_px;
  const std::int64_t step = NiceStep(c.b.Measure(Str(c.f.T - 1), px, false).w + px, c.f.cw);
  c.b.Text(Role::kAxisLabel, "cycle", c.f.x0 - 0.5 * px, c.g.axis_y, px, false, palette::kMutedText, Align::kRight)
      .run = c.run;
  for (Tick k = 0; k < c.f.T; k += step) {
    Item& it = c.b.Text(Role::kAxisLabel, Str(k), (c.f.X(k) + c.f.X(k + 1)) / 2, c.g.axis_y, px, false,
                        palette::kMutedText, Align::kCenter);
    it.run = c.run;
    it.tick0 = k;
  }
}

// "Now": a line at the current tick while the animation runs.
void Cursor(const Chart& c) {
  for (Tick k = 1; k < c.f.T; ++k) {
    const double x = c.f.X(k) + 0.5;
    Item& it = c.b.Line(Role::kCursor, x, c.g.gantt_y, x, c.g.gauge_y + c.g.gauge_h, 1, palette::kCursor);
    it.run = c.run;
    it.tick0 = k;
    it.from = k;
    it.until = k + 1;
  }
}

}  // namespace

void LayoutRunTexts(Builder& b, const Frame& f, const RunGeometry& g, const RunInput& run, int index,
                    double caption_px, double status_px, double text_w) {
  const Timeline& t = *run.timeline;
  const Metrics& m = *run.metrics;
  std::vector<Tick> starts;
  for (const PlacedOp& op : t.Ops()) starts.push_back(op.start);
  std::sort(starts.begin(), starts.end());
  std::vector<std::string> status;  // status[k] is shown from tick k
  for (Tick k = 0; k < t.makespan; ++k) {
    const std::int64_t started = std::lower_bound(starts.begin(), starts.end(), k) - starts.begin();
    status.push_back("cycle " + Str(k) + " · " + Str(started) + "/" + Str(t.schedule.op_count()) +
                     " ops started · held " + Str(k > 0 ? m.activations.cluster.At(k - 1) : 0));
  }
  status.push_back("makespan " + Str(m.makespan) + " · idle " + Str(m.idle) + " · bubble ratio " +
                   Ratio(m.bubble_ratio) + " · peak held " + Str(m.peak_activations));
  double px = status_px;
  for (const std::string& s : status) px = std::min(px, b.Fit(s, status_px, false, 0.5 * text_w));
  double widest = 0;
  for (const std::string& s : status) widest = std::max(widest, b.Measure(s, px, false).w);

  const std::string caption = run.caption.empty() ? run.name : run.caption;
  const double cpx = b.Fit(caption, caption_px, true, text_w - widest - caption_px);
  b.Text(Role::kCaption, caption, f.margin, g.caption_y, cpx, true, palette::kText).run = index;
  const double y = g.caption_y + (g.caption_h - b.LineHeight(px)) / 2;
  for (size_t k = 0; k < status.size(); ++k) {
    Item& it = b.Text(Role::kStatus, status[k], f.x1, y, px, false, palette::kMutedText, Align::kRight);
    it.run = index;
    it.from = static_cast<Tick>(k);
    it.until = k + 1 < status.size() ? static_cast<Tick>(k + 1) : kForever;
  }
}

void LayoutChart(Builder& b, const Frame& f, const RunGeometry& g, const ChartStyle& style, const RunInput& run,
                 int index, std::int64_t gauge_scale) {
  const Chart c{b, f, g, style, *run.timeline, *run.metrics, index};
  b.Rect(Role::kGrid, {f.x0, g.gantt_y, f.X(c.t.makespan) - f.x0, static_cast<double>(c.t.problem.P * g.row_h)},
         palette::kGrid)
      .run = index;
  DeviceLabels(c);
  const std::vector<PlacedOp> ops = c.t.Ops();
  OpCells(c, ops);
  BubbleCells(c, ops);
  Gauge(c, gauge_scale);
  Axis(c);
  Cursor(c);
}

}  // namespace ppsim::render

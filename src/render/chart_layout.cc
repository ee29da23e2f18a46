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

// Which of a device's chunks an op belongs to: 0, 1, ... v-1 (for the two
// V/DualPipe placements, 1 is the stage on the way back).
int ChunkOf(const PlacedOp& op, const Problem& p) {
  return p.placement == Placement::kLoop ? op.stage / p.P : (op.stage < p.P ? 0 : 1);
}

// "F3"; with chunks "F3·c1", so that the chunk never rests on a shade alone.
std::string OpLabel(const PlacedOp& op, const Problem& p) {
  std::string s(1, KindChar(op.kind));
  s += std::to_string(op.microbatch);
  if (p.v > 1) s += "\u00B7c" + std::to_string(ChunkOf(op, p));
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
  int Rows() const { return (t.problem.P + f.rows_per - 1) / f.rows_per; }
  double RowY(int row) const { return g.gantt_y + row * g.row_h; }
  // The cell of ticks [a, e) on row d, inside the gaps.
  Box Cell(Tick a, Tick e, double top, double h) const {
    const double x = f.X(a), x1 = f.X(e);
    return {x + style.gx, top + style.gy, std::max(1.0, x1 - x - 2 * style.gx), std::max(1.0, h - 2 * style.gy)};
  }
};

void DeviceLabels(const Chart& c) {
  const double lh = c.b.LineHeight(c.style.label_px);
  const int step = PowerStep(lh * 1.05, c.g.row_h);  // thinned so that labels never touch
  for (int row = 0; row < c.Rows(); row += step) {
    const int d = row * c.f.rows_per;
    std::string name = "d";
    name += std::to_string(d);
    // Rows thinner than a line: the label hangs from its row's top (the rows
    // under it are not labelled), so it never rises into the caption.
    const double y = c.g.row_h >= lh ? c.RowY(row) + (c.g.row_h - lh) / 2 : c.RowY(row);
    Item& it = c.b.Text(Role::kDeviceLabel, name, c.f.x0 - 0.5 * c.style.label_px, y,
                        c.style.label_px, false, palette::kMutedText, Align::kRight);
    it.run = c.run;
    it.device = d;
  }
}

void OpCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  // Each label is as large as its own cell allows, up to the chart's size,
  // and dropped rather than drawn under the smallest legible size.
  for (const PlacedOp& op : ops) {
    double top = c.RowY(op.device), h = c.g.row_h;
    if (op.overlap >= 0) {  // an overlapped F+B pair: F in the top half, B in the bottom half
      h = c.g.row_h / 2.0;
      if (op.kind != OpKind::kF) top += h;
    }
    const Box cell = c.Cell(op.start, op.end, top, h);
    const Color color = ChunkShade(KindColor(op.kind), ChunkOf(op, c.t.problem), c.t.problem.v);
    Item& it = c.b.Rect(Role::kOp, cell, color);
    it.run = c.run;
    it.device = op.device;
    it.tick0 = op.start;
    it.tick1 = op.end;
    it.op_kind = KindChar(op.kind);
    it.microbatch = op.microbatch;
    it.stage = op.stage;
    if (c.t.problem.v > 1) it.chunk = ChunkOf(op, c.t.problem);
    it.from = op.start + 1;
    if (op.end - op.start > 1) {
      it.grow_from = op.start;
      it.grow_ticks = op.end - op.start;
    }
    const std::string text = OpLabel(op, c.t.problem);
    const double px = std::min(c.style.cell_px, std::floor(cell.h * 0.62));
    const double fit = px < c.b.MinPx() ? 0 : c.b.Fit(text, px, false, cell.w - 2);
    const TextSize size = fit > 0 ? c.b.Measure(text, fit, false) : TextSize{};
    if (fit <= 0 || size.w + 2 > cell.w || size.h > cell.h) {
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

// One cell per idle device-cycle within [0, makespan), so that the bubble can be counted.
void BubbleCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  std::vector<std::vector<std::pair<Tick, Tick>>> busy(c.t.problem.P);
  for (const PlacedOp& op : ops) busy[op.device].emplace_back(op.start, op.end);
  for (int d = 0; d < c.t.problem.P; ++d) {
    std::sort(busy[d].begin(), busy[d].end());
    auto idle = [&](Tick a, Tick e) {
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

// Aggregated cells, when a cycle or a device is under a pixel: each cell of
// f.agg cycles x f.rows_per devices is coloured by what happened in it (one
// kind's colour, an even mix where kinds mix, lighter by its idle share in
// quarters, the bubble colour when all idle); neighbours in a row that look
// the same are one rectangle, growing over its cycles.
void StripCells(const Chart& c, const std::vector<PlacedOp>& ops) {
  const int rows = c.Rows();
  const Tick ms = c.t.makespan;
  const Tick strips = (ms + c.f.agg - 1) / c.f.agg;
  struct Count {
    std::int64_t n[3] = {0, 0, 0};  // device-cycles of F, B, W
  };
  std::vector<Count> counts(static_cast<size_t>(rows) * strips);
  for (const PlacedOp& op : ops) {
    const int row = op.device / c.f.rows_per;
    for (Tick x = op.start; x < op.end; ++x) ++counts[row * strips + x / c.f.agg].n[static_cast<int>(op.kind)];
  }
  const Color kinds[3] = {palette::kForward, palette::kBackward, palette::kWeightGrad};
  for (int row = 0; row < rows; ++row) {
    const int devices = std::min(c.t.problem.P, (row + 1) * c.f.rows_per) - row * c.f.rows_per;
    // (kinds present as bits, idle quarters 0..4) of each strip.
    auto key = [&](Tick s) {
      const Count& k = counts[row * strips + s];
      const Tick cycles = std::min<Tick>(c.f.agg, ms - s * c.f.agg);
      const std::int64_t total = devices * cycles, busy = std::min(total, k.n[0] + k.n[1] + k.n[2]);
      const int quarters = static_cast<int>((4 * (total - busy) + total / 2) / total);
      const int present = (k.n[0] > 0) | (k.n[1] > 0) << 1 | (k.n[2] > 0) << 2;
      return std::pair<int, int>{busy == 0 ? 0 : present, busy == 0 ? 4 : std::min(quarters, 3)};
    };
    for (Tick s0 = 0; s0 < strips;) {
      const std::pair<int, int> k0 = key(s0);
      Tick s1 = s0 + 1;
      while (s1 < strips && key(s1) == k0) ++s1;
      const Tick a = s0 * c.f.agg, e = std::min(ms, s1 * c.f.agg);
      Color color = palette::kBubble;
      if (k0.first != 0) {
        int r = 0, g = 0, b = 0, n = 0;
        for (int kind = 0; kind < 3; ++kind) {
          if (!(k0.first >> kind & 1)) continue;
          r += kinds[kind].r, g += kinds[kind].g, b += kinds[kind].b, ++n;
        }
        color = Mix(Color{static_cast<std::uint8_t>(r / n), static_cast<std::uint8_t>(g / n),
                          static_cast<std::uint8_t>(b / n)},
                    palette::kBubble, k0.second / 4.0);
      }
      Item& it = c.b.Rect(k0.first == 0 ? Role::kBubble : Role::kOp, c.Cell(a, e, c.RowY(row), c.g.row_h), color);
      it.hatched = k0.first == 0 && it.box.w >= 6 && it.box.h >= 6;
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
  for (Tick k = 0; k < c.t.makespan; k += c.f.agg) {  // a strip of cycles shows its largest value
    const Tick e = std::min<Tick>(k + c.f.agg, c.t.makespan);
    std::int64_t value = 0;
    for (Tick x = k; x < e; ++x) value = std::max(value, held.At(x));
    if (value <= 0) continue;
    const double h = std::round(static_cast<double>(value) / scale * c.g.gauge_h);
    const Box cell = c.Cell(k, e, bottom - h, h + 2 * c.style.gy);
    Item& it = c.b.Rect(Role::kGaugeBar, {cell.x, bottom - h, cell.w, h}, palette::kHeld);
    it.run = c.run;
    it.tick0 = k;
    it.tick1 = e;
    it.value = value;
    it.from = e;
  }
  const double lh = c.b.LineHeight(c.style.label_px);
  c.b.Text(Role::kGaugeLabel, "held", c.f.x0 - 0.5 * c.style.label_px, c.g.gauge_y + (c.g.gauge_h - lh) / 2,
           c.style.label_px, false, palette::kMutedText, Align::kRight)
      .run = c.run;
}

// Tick numbers under the gauge, on a 1-2-5 step wide enough that they never
// touch, and "finish 18" ending at this run's finish line once it is done.
void Axis(const Chart& c) {
  const double px = c.style.label_px;
  const std::int64_t step = NiceStep(c.b.Measure(Str(c.f.T - 1), px, false).w + px, c.f.cw);
  c.b.Text(Role::kAxisLabel, "cycle", c.f.x0 - 0.5 * px, c.g.axis_y, px, false, palette::kMutedText, Align::kRight)
      .run = c.run;
  const std::string finish = "finish " + Str(c.t.makespan);
  const double fw = c.b.Measure(finish, px, true).w;
  const double fx = std::max(c.f.x0, c.f.X(c.t.makespan) - fw);
  Item& fin = c.b.Text(Role::kFinish, finish, fx, c.g.axis_y, px, true, palette::kText);
  fin.run = c.run;
  fin.tick0 = c.t.makespan;
  fin.from = c.t.makespan;
  for (Tick k = 0; k < c.f.T; k += step) {
    const std::string text = Str(k);
    const double x = (c.f.X(k) + c.f.X(k + 1)) / 2;
    const double w = c.b.Measure(text, px, false).w;
    if (x + w / 2 > fx - 0.3 * px && x - w / 2 < fx + fw + 0.3 * px) continue;  // the finish label is there
    Item& it = c.b.Text(Role::kAxisLabel, text, x, c.g.axis_y, px, false, palette::kMutedText, Align::kCenter);
    it.run = c.run;
    it.tick0 = k;
  }
}

// "Now": a line at the current tick (strip edge) while the animation runs.
void Cursor(const Chart& c) {
  for (Tick k = c.f.agg; k < c.f.T; k += c.f.agg) {
    const double x = c.f.X(k) + 0.5;
    Item& it = c.b.Line(Role::kCursor, x, c.g.gantt_y, x, c.g.gauge_y + c.g.gauge_h, 1, palette::kCursor);
    it.run = c.run;
    it.tick0 = k;
    it.from = k;
    it.until = k + c.f.agg;
  }
}

// Every run's finish, as a line across this chart from the tick it is reached:
// runs that finish together share one line.
void FinishLines(const Chart& c) {
  for (Tick finish : c.style.finishes) {
    const double x = c.f.X(finish) - 0.5;
    Item& it = c.b.Line(Role::kFinish, x, c.g.gantt_y - 2, x, c.g.gauge_y + c.g.gauge_h + 2, 2, palette::kText);
    it.run = c.run;
    it.tick0 = finish;
    it.from = finish;
  }
}

// "idle 6" after each device row (or row of devices), once the run is done.
void IdleCounts(const Chart& c, const std::vector<Tick>& idle_per_device) {
  const double px = std::min(c.style.label_px, std::floor(c.g.row_h * 0.8));
  if (px < c.b.MinPx()) return;  // rows thinner than legible text: the status line has the total
  const double lh = c.b.LineHeight(px);
  for (int row = 0; row < c.Rows(); ++row) {
    Tick idle = 0;
    for (int d = row * c.f.rows_per; d < std::min(c.t.problem.P, (row + 1) * c.f.rows_per); ++d) {
      idle += idle_per_device[d];
    }
    Item& it = c.b.Text(Role::kIdleCount, "idle " + Str(idle), c.f.X(c.f.T) + 0.4 * c.style.label_px,
                        c.RowY(row) + (c.g.row_h - lh) / 2, px, false, palette::kText);
    it.run = c.run;
    it.device = row * c.f.rows_per;
    it.value = idle;
    it.from = c.t.makespan;
  }
}

}  // namespace

std::vector<Interval> BusyIntervals(const Timeline& t) {
  std::vector<std::vector<std::pair<Tick, Tick>>> per(t.problem.P);
  for (const PlacedOp& op : t.Ops()) per[op.device].emplace_back(op.start, op.end);
  std::vector<Interval> out;
  for (int d = 0; d < t.problem.P; ++d) {
    std::sort(per[d].begin(), per[d].end());
    for (const auto& [s, e] : per[d]) {  // overlapped pairs share their cycles: the union
      if (!out.empty() && out.back().device == d && s <= out.back().end) {
        out.back().end = std::max(out.back().end, e);
      } else {
        out.push_back({d, s, e});
      }
    }
  }
  return out;
}

std::vector<Tick> IdlePerDevice(const Timeline& t) {
  std::vector<Tick> idle(t.problem.P, t.makespan);
  for (const Interval& i : BusyIntervals(t)) idle[i.device] -= i.end - i.start;
  return idle;
}

void LayoutRunTexts(Builder& b, const Frame& f, const RunGeometry& g, const RunInput& run, int index,
                    double caption_px, double status_px, double text_w) {
  const Timeline& t = *run.timeline;
  const Metrics& m = *run.metrics;
  std::vector<Tick> ends;
  for (const PlacedOp& op : t.Ops()) ends.push_back(op.end);
  std::sort(ends.begin(), ends.end());
  // busy_before[k]: busy device-cycles in [0, k).
  std::vector<std::int64_t> busy_before(static_cast<size_t>(t.makespan) + 1, 0);
  for (const Interval& i : BusyIntervals(t)) {
    busy_before[i.start + 1] += 1;
    if (i.end + 1 <= t.makespan) busy_before[i.end + 1] -= 1;
  }
  for (Tick k = 1, running = 0; k <= t.makespan; ++k) {
    running += busy_before[k];
    busy_before[k] = busy_before[k - 1] + running;
  }
  const std::string total = Str(t.schedule.op_count());
  // status[i] is shown from tick i * f.agg: what the frame shows is done.
  std::vector<std::string> status;
  for (Tick k = 0; k < t.makespan; k += f.agg) {
    const std::int64_t done = std::upper_bound(ends.begin(), ends.end(), k) - ends.begin();
    const std::string counts = "done " + Str(done) + "/" + total + " · idle so far " +
                               Str(t.problem.P * k - busy_before[k]) + " · held " +
                               Str(k > 0 ? m.activations.cluster.At(k - 1) : 0);
    status.push_back((k == 0 ? std::string("not started") : "cycle " + Str(k - 1) + " done") + " · " + counts);
  }
  const std::int64_t slots = static_cast<std::int64_t>(t.problem.P) * m.makespan;
  status.push_back("makespan " + Str(m.makespan) + " · idle " + Str(m.idle) + " of " + Str(slots) + " slots (" +
                   Str(slots > 0 ? (200 * m.idle + slots) / (2 * slots) : 0) + "%) · peak held " +
                   Str(m.peak_activations));
  // One size for all: fitted on the longest few (digits are of equal width).
  std::vector<size_t> order(status.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t c) { return status[a].size() > status[c].size(); });
  double px = status_px;
  for (size_t i = 0; i < std::min<size_t>(order.size(), 4); ++i) {
    px = std::min(px, b.Fit(status[order[i]], status_px, false, 0.55 * text_w));
  }
  double widest = 0;
  for (const std::string& s : status) widest = std::max(widest, b.Measure(s, px, false).w);

  const std::string caption = run.caption.empty() ? run.name : run.caption;
  const double cpx = b.Fit(caption, caption_px, true, text_w - widest - caption_px);
  b.Text(Role::kCaption, caption, f.margin, g.caption_y, cpx, true, palette::kText).run = index;
  const double y = g.caption_y + (g.caption_h - b.LineHeight(px)) / 2;
  for (size_t i = 0; i < status.size(); ++i) {
    Item& it = b.Text(Role::kStatus, status[i], f.right, y, px, false, palette::kMutedText, Align::kRight);
    it.run = index;
    it.from = i + 1 < status.size() ? static_cast<Tick>(i) * f.agg : t.makespan;
    it.until = i + 2 < status.size() ? static_cast<Tick>(i + 1) * f.agg
               : i + 1 < status.size() ? t.makespan
                                       : kForever;
  }
}

void LayoutChart(Builder& b, const Frame& f, const RunGeometry& g, const ChartStyle& style, const RunInput& run,
                 int index, std::int64_t gauge_scale) {
  const Chart c{b, f, g, style, *run.timeline, *run.metrics, index};
  b.Rect(Role::kGrid, {f.x0, g.gantt_y, f.X(c.t.makespan) - f.x0, static_cast<double>(c.Rows() * g.row_h)},
         palette::kGrid)
      .run = index;
  DeviceLabels(c);
  const std::vector<PlacedOp> ops = c.t.Ops();
  if (f.agg > 1 || f.rows_per > 1) {
    StripCells(c, ops);
  } else {
    OpCells(c, ops);
    BubbleCells(c, ops);
  }
  Gauge(c, gauge_scale);
  FinishLines(c);
  IdleCounts(c, IdlePerDevice(c.t));
  Axis(c);
  Cursor(c);
}

}  // namespace ppsim::render

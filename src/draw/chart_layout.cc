#include "chart_layout.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "color_util.h"
#include "ppsim/cost_scale.h"
#include "ppsim/rational.h"

namespace ppsim::render {
namespace {

using Align = Builder::Align;

// Which of a device's chunks an op belongs to: 0, 1, ... v-1 (for the two
// V/DualPipe placements, 1 is the stage on the way back).
int ChunkOf(const PlacedOp& op, const Problem& p) {
  if (p.placement == Placement::kMap)  // its place among the device's stages
    return static_cast<int>(std::count(p.stage_device.begin(), p.stage_device.begin() + op.stage, op.device));
  return p.placement == Placement::kLoop ? op.stage / p.P : (op.stage < p.P ? 0 : 1);
}

// "F3"; with chunks "F3·c1", so that the chunk never rests on a shade alone;
// with sequence slices "F3.1": slice 1 of microbatch 3, one part of its cell.
std::string OpLabel(const PlacedOp& op, const Problem& p) {
  std::string s(1, KindChar(op.kind));
  s += std::to_string(op.microbatch);
  if (p.slices > 1) s += "." + std::to_string(op.slice);
  if (p.v > 1) s += "\u00B7c" + std::to_string(ChunkOf(op, p));
  return s;
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
  // Each label is as large as the narrowest cell of its duration allows (cell
  // edges round to whole pixels, so equal cells differ by one: one decision
  // for all of them keeps identical cells identical), up to the chart's size,
  // and dropped rather than drawn under the smallest legible size.
  auto half = [](const PlacedOp& op) { return op.overlap >= 0; };
  std::map<std::pair<Tick, bool>, double> narrowest;  // (duration, in a pair's half) -> px
  for (const PlacedOp& op : ops) {
    const Box cell = c.Cell(op.start, op.end, 0, c.g.row_h);
    auto [at, fresh] = narrowest.try_emplace({op.end - op.start, half(op)}, cell.w);
    if (!fresh) at->second = std::min(at->second, cell.w);
  }
  for (const PlacedOp& op : ops) {
    double top = c.RowY(op.device), h = c.g.row_h;
    if (half(op)) {  // an overlapped F+B pair: F in the top half, B in the bottom half
      h = c.g.row_h / 2.0;
      if (op.kind != OpKind::kF) top += h;
    }
    const Box cell = c.Cell(op.start, op.end, top, h);
    const double room = narrowest.at({op.end - op.start, half(op)});
    const bool whole = op.kind == OpKind::kB && (op.full || !c.t.schedule.split_backward);
    const Color color = OpFill(op.kind, ChunkOf(op, c.t.problem), c.t.problem.v);
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

// Aggregated cells, when a cycle or a device is under two pixels where the
// picture is viewed: each cell of f.agg cycles x f.rows_per devices is the
// bubble when idle for half its device-cycles or more, else coloured by the
// kinds done in it (one kind's colour, or KindsMix where several are, which
// the legend lists; item.value keeps the kinds, bit 0 F, 1 B, 2 W);
// neighbours in a row that look the same are one rectangle, growing over its
// cycles. No other colour is drawn: none a legend would lack.
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
  for (int row = 0; row < rows; ++row) {
    const int devices = std::min(c.t.problem.P, (row + 1) * c.f.rows_per) - row * c.f.rows_per;
    // The kinds done in each strip as bits, 0 when it is idle half the time or more.
    auto key = [&](Tick s) {
      const Count& k = counts[row * strips + s];
      const Tick cycles = std::min<Tick>(c.f.agg, ms - s * c.f.agg);
      const std::int64_t total = devices * cycles, busy = std::min(total, k.n[0] + k.n[1] + k.n[2]);
      return 2 * busy <= total ? 0 : (k.n[0] > 0) | (k.n[1] > 0) << 1 | (k.n[2] > 0) << 2;
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

// The bars of one series (cluster or one device) between `top` and `bottom`:
// one bar per strip of cycles, its height the largest value held in it, in
// 1/gauge_den stage-sets over `scale`; `usable` pixels is the scale's full
// height. A line at the series' peak appears once the peak is reached and
// grows with the cycles played, never ahead of them. Returns the line's y
// (or -1 when nothing is ever held) and sets *peak_tick.
template <typename HeldAt>  // std::int64_t(Tick): sets held in that tick
double GaugeSeries(const Chart& c, const HeldAt& held, std::int64_t series_peak, std::int64_t per_set,
                   std::int64_t scale, double bottom, double usable, int device, Tick* peak_tick) {
  *peak_tick = -1;
  for (Tick k = 0; k < c.t.makespan && *peak_tick < 0; ++k) {
    if (held(k) == series_peak) *peak_tick = k;
  }
  const double full = static_cast<double>(std::max<std::int64_t>(1, scale));
  double line_y = -1;
  const std::int64_t peak = series_peak * per_set;
  if (*peak_tick >= 0 && peak > 0) {  // behind the bars
    line_y = bottom - std::round(static_cast<double>(peak) / full * usable);
    Item& it = c.b.Rect(Role::kPeakLine, {c.f.x0, line_y, c.f.X(c.t.makespan) - c.f.x0, 1},
                        Mix(palette::kHeld, palette::kText, 0.5));
    it.run = c.run;
    it.device = device;
    it.value = peak;
    it.tick0 = *peak_tick;
    it.from = *peak_tick + 1;
    it.grow_from = 0;
    it.grow_ticks = c.t.makespan;
  }
  for (Tick k = 0; k < c.t.makespan; k += c.f.agg) {  // a strip of cycles shows its largest value
    const Tick e = std::min<Tick>(k + c.f.agg, c.t.makespan);
    std::int64_t value = 0;
    for (Tick x = k; x < e; ++x) value = std::max(value, held(x));
    value *= per_set;
    if (value <= 0) continue;
    const double h = std::round(static_cast<double>(value) / full * usable);
    const Box cell = c.Cell(k, e, bottom - h, h + 2 * c.style.gy);
    Item& it = c.b.Rect(Role::kGaugeBar, {cell.x, bottom - h, cell.w, h}, palette::kHeld);
    it.run = c.run;
    it.device = device;
    it.tick0 = k;
    it.tick1 = e;
    it.value = value;
    it.from = e;
  }
  return line_y;
}

// The cluster gauge: activations held by all devices, in stage-sets (a
// chunk's set counts 1/ChunksPerStage) over the page's shared scale. The top
// line-height is headroom for "peak 14 stage-sets", printed at the peak line
// once the peak is reached; 0 and the scale's maximum stand on the left edge.
void ClusterGauge(const Chart& c, std::int64_t scale, std::int64_t den) {
  const double px = c.style.label_px;
  const double lh = c.b.LineHeight(px);
  const double bottom = c.g.gauge_y + c.g.gauge_h;
  const bool roomy = c.g.gauge_h >= 2 * lh;  // room for the peak's value above the highest line
  const double usable = roomy ? c.g.gauge_h - lh : c.g.gauge_h;
  const std::int64_t per_set = den / ChunksPerStage(c.t.problem);
  Tick peak_tick = -1;
  const StepSeries& cluster = c.m.activations.cluster;
  const double y = GaugeSeries(c, [&](Tick k) { return cluster.At(k); }, c.m.activations.peak, per_set, scale, bottom, usable, -1,
                               &peak_tick);
  if (roomy && y >= 0) {
    const std::int64_t peak = c.m.activations.peak * per_set;
    const std::string text =
        (c.style.gauge == GaugeMode::kFullest ? "fullest device peak " : "peak ") + Sets(peak, den) + " stage-sets";
    const double w = c.b.Measure(text, px, false).w;
    const double x = c.f.X(peak_tick);
    const bool fits_right = x + w <= c.f.X(c.f.T);
    Item& label = c.b.Text(Role::kGaugeLabel, text, fits_right ? x : c.f.X(c.f.T), y - lh, px, false, palette::kText,
                           fits_right ? Align::kLeft : Align::kRight);
    label.run = c.run;
    label.value = peak;
    label.from = peak_tick + 1;
  }
  // The edge: the scale's maximum at the top of the bars' range and 0 at the
  // bottom, at any height: "held" between them when there is room for the
  // three apart; in a gauge under two lines, one label "0–4" (the legend
  // names what the gauge holds).
  const double x_label = c.f.x0 - 0.5 * px;
  if (c.g.gauge_h < 2 * lh) {
    Item& range = c.b.Text(Role::kGaugeLabel, "0\u2013" + Sets(scale, den), x_label, c.g.gauge_y + (c.g.gauge_h - lh) / 2,
                           px, false, palette::kMutedText, Align::kRight);
    range.run = c.run;
    range.value = scale;
    return;
  }
  // Centred on the top of the bars' range, else just above it (no lower than
  // a line above the "0").
  const double top = std::max<double>(c.g.gauge_y, std::min(bottom - usable - lh / 2, bottom - 2 * lh));
  Item& max = c.b.Text(Role::kGaugeLabel, Sets(scale, den), x_label, top, px, false, palette::kMutedText, Align::kRight);
  max.run = c.run;
  max.value = scale;
  c.b.Text(Role::kGaugeLabel, "0", x_label, bottom - lh, px, false, palette::kMutedText, Align::kRight).run = c.run;
  if (c.g.gauge_h >= 4.5 * lh) {  // else the three would touch
    c.b.Text(Role::kGaugeLabel, "held", x_label, c.g.gauge_y + (c.g.gauge_h - lh) / 2, px, false, palette::kMutedText,
             Align::kRight)
        .run = c.run;
  }
}

// One small gauge per device (per row of devices when rows aggregate: the
// most any of them holds), in lanes under a header line that names the unit
// and the lanes' full height. Lanes tall enough for a legible label show the
// device left of the lane and its peak value at its peak line, right of the
// chart, once reached; thinner lanes are unlabelled and the header lists the
// lanes' peaks, top to bottom, once the run is done.
void DeviceGauges(const Chart& c, std::int64_t scale, std::int64_t den) {
  const double px = c.style.label_px;
  const double lh = c.b.LineHeight(px);
  const int lanes = c.Rows();
  const double lane_h = std::floor((c.g.gauge_h - lh) / lanes);  // REQUIRES (Layout): >= its lane_min
  const double top = c.g.gauge_y + lh;
  const std::int64_t per_set = den / ChunksPerStage(c.t.problem);
  const double x_label = c.f.x0 - 0.5 * px;
  const double lane_px = std::min(px, std::floor(lane_h * px / lh));  // its line no taller than the lane
  const bool labelled = lane_px >= c.b.MinPx() && c.b.LineHeight(lane_px) <= lane_h;
  const double lane_lh = labelled ? c.b.LineHeight(lane_px) : 0;
  std::vector<std::int64_t> peaks(lanes, 0);
  std::string listed;  // "4 · 3 · 2 · 0"
  for (int lane = 0; lane < lanes; ++lane) {
    for (int d = lane * c.f.rows_per; d < std::min(c.t.problem.P, (lane + 1) * c.f.rows_per); ++d) {
      peaks[lane] = std::max(peaks[lane], c.m.activations.peak_per_device[d]);
    }
    listed += (lane > 0 ? " \u00B7 " : "") + Sets(peaks[lane] * per_set, den);
  }
  const std::string head_text = "held per device, in stage-sets (a full lane = " + Sets(scale, den) + ")";
  const std::string done_text = head_text + " \u00B7 peaks, top to bottom: " + listed;
  const bool list_in_head = !labelled && c.b.Measure(done_text, px, false).w <= c.f.X(c.f.T) - c.f.x0;
  Item& head = c.b.Text(Role::kGaugeLabel, head_text, c.f.x0, c.g.gauge_y, px, false, palette::kMutedText);
  head.run = c.run;
  head.value = scale;
  if (list_in_head) {
    head.until = c.t.makespan;
    Item& done = c.b.Text(Role::kGaugeLabel, done_text, c.f.x0, c.g.gauge_y, px, false, palette::kMutedText);
    done.run = c.run;
    done.value = scale;
    done.from = c.t.makespan;
  }
  for (int lane = 0; lane < lanes; ++lane) {
    const int d0 = lane * c.f.rows_per, d1 = std::min(c.t.problem.P, d0 + c.f.rows_per);
    const double lane_top = top + lane * lane_h, bottom = lane_top + lane_h;
    Item& back = c.b.Rect(Role::kGaugeBack, {c.f.x0, lane_top, c.f.X(c.f.T) - c.f.x0, lane_h - 1}, palette::kGaugeBack);
    back.run = c.run;
    back.device = d0;
    auto held = [&](Tick k) {  // a row of devices: the most any one holds
      std::int64_t most = 0;
      for (int d = d0; d < d1; ++d) most = std::max(most, c.m.activations.per_device[d].At(k));
      return most;
    };
    Tick peak_tick = -1;
    const double y = GaugeSeries(c, held, peaks[lane], per_set, scale, bottom - 1, lane_h - 1, d0, &peak_tick);
    if (!labelled) continue;
    const std::string name = d1 - d0 > 1 ? "d" + Str(d0) + "\u2013" + Str(d1 - 1) : "d" + Str(d0);
    Item& lab = c.b.Text(Role::kGaugeLabel, name, x_label, lane_top + (lane_h - lane_lh) / 2, lane_px, false,
                         palette::kMutedText, Align::kRight);
    lab.run = c.run;
    lab.device = d0;
    if (y < 0) continue;
    const double ly = std::clamp(y - lane_lh / 2, lane_top, bottom - lane_lh);
    Item& value = c.b.Text(Role::kGaugeLabel, "peak " + Sets(peaks[lane] * per_set, den), c.f.X(c.f.T) + 0.4 * px,
                           ly, lane_px, false, palette::kText);
    value.run = c.run;
    value.device = d0;
    value.value = peaks[lane] * per_set;
    value.from = peak_tick + 1;
  }
}

void Gauge(const Chart& c, std::int64_t scale, std::int64_t den) {
  c.b.Rect(Role::kGaugeBack, {c.f.x0, c.g.gauge_y, c.f.X(c.f.T) - c.f.x0, static_cast<double>(c.g.gauge_h)},
           palette::kGaugeBack)
      .run = c.run;
  if (c.style.gauge == GaugeMode::kDevice) {
    DeviceGauges(c, scale, den);
  } else {
    ClusterGauge(c, scale, den);
  }
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

// "Now": a line at the current tick (strip edge) while the animation runs,
// never on the final frame (tick T), which shows the finished picture.
void Cursor(const Chart& c) {
  for (Tick k = c.f.agg; k < c.f.T; k += c.f.agg) {
    const double x = c.f.X(k) + 0.5;
    Item& it = c.b.Line(Role::kCursor, x, c.g.gantt_y, x, c.g.gauge_y + c.g.gauge_h, 1, palette::kCursor);
    it.run = c.run;
    it.tick0 = k;
    it.from = k;
    it.until = std::min(k + c.f.agg, c.f.T);
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

std::string Sets(std::int64_t value, std::int64_t den) {
  const std::optional<Rational> r = Rational::Of(value, den);
  return r ? r->ToDisplay() : Str(value);
}

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

void LayoutChart(Builder& b, const Frame& f, const RunGeometry& g, const ChartStyle& style, const RunInput& run,
                 int index, std::int64_t gauge_scale, std::int64_t gauge_den) {
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
  Gauge(c, gauge_scale, gauge_den);
  FinishLines(c);
  IdleCounts(c, IdlePerDevice(c.t));
  Axis(c);
  Cursor(c);
}

}  // namespace ppsim::render

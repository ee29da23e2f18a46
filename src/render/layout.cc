#include "ppsim/render/layout.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "color_util.h"

namespace ppsim::render {
namespace {

constexpr double kMinFontPx = 9;

std::string Str(std::int64_t v) { return std::to_string(v); }

std::string DeviceName(int d) {
  std::string s = "d";
  s += std::to_string(d);
  return s;
}

std::string Ratio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", r);
  return buf;
}

// Places text items; owns the measurer calls and the frame clip.
class Builder {
 public:
  Builder(DisplayList& list, TextMeasurer& measurer) : list_(list), m_(measurer) {}

  TextSize Measure(const std::string& text, double px, bool bold) { return m_.Measure(text, px, bold); }

  // Largest size <= px (down to kMinFontPx) at which `text` is at most max_w wide.
  double Fit(const std::string& text, double px, bool bold, double max_w) {
    while (px > kMinFontPx && m_.Measure(text, px, bold).w > max_w) px = std::max(kMinFontPx, std::floor(px * 0.92));
    return px;
  }

  double LineHeight(double px, bool bold = false) { return m_.Measure("Ag", px, bold).h; }

  // align: 0 left at x, 1 centred on x, 2 right at x. Returns the item.
  Item& Text(Role role, const std::string& text, double x, double y, double px, bool bold, Color color,
             int align = 0) {
    const TextSize size = m_.Measure(text, px, bold);
    Item item;
    item.kind = ItemKind::kText;
    item.role = role;
    item.text = text;
    item.font_px = px;
    item.bold = bold;
    item.color = color;
    item.baseline = size.baseline;
    double left = x;
    if (align == 1) left = x - size.w / 2;
    if (align == 2) left = x - size.w;
    item.box = {left, y, size.w, size.h};
    item.clip = {0, 0, static_cast<double>(list_.width), static_cast<double>(list_.height)};
    list_.items.push_back(std::move(item));
    return list_.items.back();
  }

  Item& Rect(Role role, Box box, Color color) {
    Item item;
    item.kind = ItemKind::kRect;
    item.role = role;
    item.box = box;
    item.color = color;
    list_.items.push_back(std::move(item));
    return list_.items.back();
  }

  Item& Line(Role role, double x0, double y0, double x1, double y1, double width, Color color) {
    Item item;
    item.kind = ItemKind::kLine;
    item.role = role;
    item.box = {x0, y0, x1 - x0, y1 - y0};
    item.line_width = width;
    item.color = color;
    list_.items.push_back(std::move(item));
    return list_.items.back();
  }

 private:
  DisplayList& list_;
  TextMeasurer& m_;
};

Color KindColor(OpKind kind) {
  switch (kind) {
    case OpKind::kF: return palette::kForward;
    case OpKind::kB: return palette::kBackward;
    case OpKind::kW: return palette::kWeightGrad;
  }
  return palette::kForward;
}

// Later chunks of an interleaved schedule are drawn lighter.
Color ChunkShade(Color c, int chunk, int v) {
  if (v <= 1 || chunk == 0) return c;
  return Mix(c, palette::kBackground, 0.45 * chunk / (v - 1));
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

// Smallest step from 1, 2, 4, 8, ... (device rows).
int PowerStep(double need, double unit) {
  int step = 1;
  while (step * unit < need && step < (1 << 20)) step *= 2;
  return step;
}

struct Frame {
  double s = 1;  // scale against 1920x1080
  double margin = 24;
  double x0 = 0, x1 = 0;  // the chart's tick area
  double cw = 0;          // pixels per tick
  Tick T = 1;
  double X(Tick t) const { return std::round(x0 + static_cast<double>(t) * cw); }
};

struct RunGeometry {
  double caption_y = 0;
  double gantt_y = 0;
  int row_h = 0;
  double gauge_y = 0;
  int gauge_h = 0;
  double axis_y = 0;
};

}  // namespace

std::string DefaultSubtitle(const std::vector<RunInput>& runs) {
  std::set<int> Ps, Ms, vs;
  for (const RunInput& r : runs) {
    Ps.insert(r.timeline->problem.P);
    Ms.insert(r.timeline->problem.M);
    vs.insert(r.timeline->problem.v);
  }
  auto join = [](const std::set<int>& values) {
    std::string out;
    for (int v : values) out += (out.empty() ? "" : " / ") + std::to_string(v);
    return out;
  };
  const bool chunked = *vs.rbegin() > 1;
  std::string s = join(Ps) + (chunked ? " devices" : " stages") + " · " + join(Ms) + " microbatches";
  if (chunked) s += " · v = " + join(vs) + " chunks per device";
  return s + " · one cell = one cycle";
}

Result<DisplayList> Layout(const LayoutInput& in, TextMeasurer& measurer) {
  if (in.runs.empty()) return Fail(ErrorCode::kInvalidValue, "render: the scene has no runs");
  if (in.width < 16 || in.height < 16 || in.width > 16384 || in.height > 16384) {
    return Fail(ErrorCode::kInvalidValue, "render: frame size " + std::to_string(in.width) + "x" +
                                              std::to_string(in.height) + " is outside 16..16384");
  }
  DisplayList list;
  list.width = in.width;
  list.height = in.height;
  list.title = in.title;
  list.subtitle = in.subtitle.empty() ? DefaultSubtitle(in.runs) : in.subtitle;
  list.closing = in.closing;
  bool any_w = false, any_chunks = false;
  for (const RunInput& r : in.runs) {
    const Timeline& t = *r.timeline;
    list.last_tick = std::max(list.last_tick, t.makespan);
    list.gauge_scale = std::max(list.gauge_scale, r.metrics->peak_activations);
    any_w = any_w || t.schedule.split_backward;
    any_chunks = any_chunks || t.problem.v > 1;
    RunSummary sum;
    sum.name = r.name;
    sum.caption = r.caption.empty() ? r.name : r.caption;
    sum.P = t.problem.P;
    sum.M = t.problem.M;
    sum.v = t.problem.v;
    sum.makespan = r.metrics->makespan;
    sum.busy = r.metrics->busy;
    sum.idle = r.metrics->idle;
    sum.bubble_ratio = r.metrics->bubble_ratio;
    sum.peak = r.metrics->peak_activations;
    list.runs.push_back(sum);
  }
  Frame f;
  f.T = std::max<Tick>(1, list.last_tick);
  f.s = std::min(in.width / 1920.0, in.height / 1080.0);
  f.margin = std::max(4.0, std::round(24 * f.s));
  auto font = [&](double px) { return std::max(kMinFontPx, std::round(px * f.s)); };
  const double W = in.width, H = in.height;
  const double text_w = W - 2 * f.margin;
  Builder b(list, measurer);
  b.Rect(Role::kBackground, {0, 0, W, H}, palette::kBackground);

  // Title, subtitle.
  double y = f.margin;
  if (!list.title.empty()) {
    const double px = b.Fit(list.title, font(40), true, text_w);
    y += b.Text(Role::kTitle, list.title, f.margin, y, px, true, palette::kText).box.h + 0.15 * px;
  }
  {
    const double px = b.Fit(list.subtitle, font(24), false, text_w);
    y += b.Text(Role::kSubtitle, list.subtitle, f.margin, y, px, false, palette::kMutedText).box.h + 0.5 * px;
  }

  // Legend, wrapping when it is wider than the frame.
  {
    struct Entry {
      Color color;
      std::string label;
    };
    std::vector<Entry> entries = {{palette::kForward, "forward (F)"}, {palette::kBackward, "backward (B)"}};
    if (any_w) entries.push_back({palette::kWeightGrad, "weight-grad (W)"});
    entries.push_back({palette::kBubble, "bubble (idle)"});
    entries.push_back({palette::kHeld, "activations held"});
    if (any_chunks) entries.push_back({ChunkShade(palette::kForward, 1, 2), "lighter = later chunk"});
    const double px = font(20);
    const double lh = b.LineHeight(px);
    const double sw = std::round(lh * 0.8);
    double x = f.margin;
    for (const Entry& e : entries) {
      const double need = sw + 0.4 * px + b.Measure(e.label, px, false).w;
      if (x > f.margin && x + need > W - f.margin) {
        x = f.margin;
        y += lh * 1.25;
      }
      b.Rect(Role::kLegendSwatch, {x, std::round(y + (lh - sw) / 2), sw, sw}, e.color);
      b.Text(Role::kLegendLabel, e.label, x + sw + 0.4 * px, y, px, false, palette::kText);
      x += need + 1.5 * px;
    }
    y += lh * 1.25 + 0.4 * px;
  }

  // Closing lines at the bottom, shown on the final frame only.
  const double closing_px = font(26);
  std::vector<double> closing_px_each;
  double closing_h = 0;
  for (const std::string& line : list.closing) {
    const double px = b.Fit(line, closing_px, false, text_w);
    closing_px_each.push_back(px);
    closing_h += b.LineHeight(px) * 1.2;
  }
  const double bottom = H - f.margin - closing_h - (list.closing.empty() ? 0 : 0.3 * closing_px);

  // Horizontal: label column, then the tick area.
  int maxP = 1;
  for (const RunInput& r : in.runs) maxP = std::max(maxP, r.timeline->problem.P);
  const double label_px = font(16);
  const double label_w = std::max({b.Measure(DeviceName(maxP - 1), label_px, false).w,
                                   b.Measure("held", label_px, false).w, b.Measure("cycle", label_px, false).w});
  f.x0 = std::round(f.margin + label_w + 0.6 * label_px);
  f.x1 = W - f.margin;
  f.cw = (f.x1 - f.x0) / static_cast<double>(f.T);
  if (f.cw < 1) {
    return Fail(ErrorCode::kLegibility, "render: " + Str(f.T) + " cycles do not fit in " + Str(in.width) +
                                            " pixels (less than one pixel per cycle); use a wider --size");
  }

  // Vertical: split what is left between the runs.
  const int R = static_cast<int>(in.runs.size());
  const double caption_px = font(22);
  const double status_px = font(18);
  const double caption_h = std::max(b.LineHeight(caption_px, true), b.LineHeight(status_px));
  const double axis_h = b.LineHeight(label_px);
  const double gap = std::max(2.0, std::round(6 * f.s));
  const double fixed = caption_h + gap + gap + axis_h;
  const double run_gap = std::round(caption_h * 0.6);
  const double flexible = (bottom - y - R * fixed - (R - 1) * run_gap) / R;
  std::vector<RunGeometry> geo(R);
  int row_h = static_cast<int>(std::floor(std::min(flexible * 0.75 / maxP, 64 * f.s)));
  if (row_h < 1) {
    return Fail(ErrorCode::kLegibility, "render: " + Str(R) + " charts of " + Str(maxP) + " devices do not fit in " +
                                            Str(in.height) + " pixels; use a taller --size or fewer runs");
  }
  const int gauge_h = static_cast<int>(std::floor(std::min(flexible - maxP * row_h - gap, 150 * f.s)));
  const double used = R * (fixed + maxP * row_h + gap + gauge_h) + (R - 1) * run_gap;
  y += std::max(0.0, std::floor((bottom - y - used) / 2));
  for (int r = 0; r < R; ++r) {
    RunGeometry& g = geo[r];
    g.caption_y = y;
    g.gantt_y = std::round(y + caption_h + gap);
    g.row_h = row_h;
    g.gauge_y = g.gantt_y + maxP * row_h + gap;
    g.gauge_h = std::max(0, gauge_h);
    g.axis_y = g.gauge_y + g.gauge_h + gap;
    y = g.axis_y + axis_h + run_gap;
  }

  // Captions and the per-tick status texts.
  for (int r = 0; r < R; ++r) {
    const RunInput& run = in.runs[r];
    const Timeline& t = *run.timeline;
    const Metrics& m = *run.metrics;
    const RunGeometry& g = geo[r];
    const std::int64_t n_ops = t.schedule.op_count();
    std::vector<Tick> starts;
    for (const PlacedOp& op : t.Ops()) starts.push_back(op.start);
    std::sort(starts.begin(), starts.end());
    std::vector<std::string> status;
    for (Tick k = 0; k < t.makespan; ++k) {
      const std::int64_t started = std::lower_bound(starts.begin(), starts.end(), k) - starts.begin();
      status.push_back("cycle " + Str(k) + " · " + Str(started) + "/" + Str(n_ops) + " ops started · held " +
                       Str(k > 0 ? m.activations.cluster.At(k - 1) : 0));
    }
    status.push_back("makespan " + Str(m.makespan) + " · idle " + Str(m.idle) + " · bubble ratio " +
                     Ratio(m.bubble_ratio) + " · peak held " + Str(m.peak_activations));
    double widest = 0;
    double spx = status_px;
    for (const std::string& s : status) spx = std::min(spx, b.Fit(s, status_px, false, 0.5 * text_w));
    for (const std::string& s : status) widest = std::max(widest, b.Measure(s, spx, false).w);
    const std::string caption = run.caption.empty() ? run.name : run.caption;
    const double cpx = b.Fit(caption, caption_px, true, text_w - widest - caption_px);
    b.Text(Role::kCaption, caption, f.margin, g.caption_y, cpx, true, palette::kText).run = r;
    for (size_t k = 0; k < status.size(); ++k) {
      Item& it = b.Text(Role::kStatus, status[k], f.x1, g.caption_y + (caption_h - b.LineHeight(spx)) / 2, spx,
                        false, palette::kMutedText, 2);
      it.run = r;
      it.from = k == 0 ? 0 : static_cast<Tick>(k);
      it.until = k + 1 < status.size() ? static_cast<Tick>(k + 1) : kForever;
    }
  }

  // Charts.
  const int gx = f.cw >= 40 ? 2 : f.cw >= 5 ? 1 : 0;
  const int gy = row_h >= 24 ? 2 : row_h >= 5 ? 1 : 0;
  // In-cell labels: as large as a row allows, shrunk so that the widest
  // label fits a one-tick cell if it can (else only longer cells get one).
  double cell_px = std::max(kMinFontPx, std::min(std::floor(row_h * 0.45), font(22)));
  {
    int maxM = 1;
    for (const RunInput& r : in.runs) maxM = std::max(maxM, r.timeline->problem.M);
    const std::string widest = "W" + Str(maxM - 1);
    while (cell_px > kMinFontPx && b.Measure(widest, cell_px, false).w + 2 > f.cw - 2 * gx) cell_px -= 1;
  }
  for (int r = 0; r < R; ++r) {
    const RunInput& run = in.runs[r];
    const Timeline& t = *run.timeline;
    const Metrics& m = *run.metrics;
    const RunGeometry& g = geo[r];
    const int P = t.problem.P;
    const int v = t.problem.v;
    auto row_y = [&](int d) { return g.gantt_y + d * g.row_h; };

    b.Rect(Role::kGrid, {f.x0, g.gantt_y, f.X(t.makespan) - f.x0, static_cast<double>(P * g.row_h)}, palette::kGrid)
        .run = r;

    // Device labels, thinned to fit.
    const double dlh = b.LineHeight(label_px);
    const int dstep = PowerStep(dlh * 1.05, g.row_h);
    for (int d = 0; d < P; d += dstep) {
      Item& it = b.Text(Role::kDeviceLabel, DeviceName(d), f.x0 - 0.5 * label_px, row_y(d) + (g.row_h - dlh) / 2,
                        label_px, false, palette::kMutedText, 2);
      it.run = r;
      it.device = d;
    }

    // Ops, and the widest label to decide which cells can hold one.
    const std::vector<PlacedOp> ops = t.Ops();
    double widest_label = 0;
    for (const PlacedOp& op : ops) {
      widest_label =
          std::max(widest_label, b.Measure(std::string(1, KindChar(op.kind)) + Str(op.microbatch), cell_px, false).w);
    }
    const double label_h = b.LineHeight(cell_px);
    for (const PlacedOp& op : ops) {
      const double cx = f.X(op.start), cx1 = f.X(op.end);
      double top = row_y(op.device), h = g.row_h;
      if (op.overlap >= 0) {  // an overlapped F+B pair: F in the top half, B in the bottom half
        h = g.row_h / 2.0;
        if (op.kind != OpKind::kF) top += h;
      }
      Box cell{cx + gx, top + gy, std::max(1.0, cx1 - cx - 2 * gx), std::max(1.0, h - 2 * gy)};
      const Color color = ChunkShade(KindColor(op.kind), op.stage / P, v);
      Item& it = b.Rect(Role::kOp, cell, color);
      it.run = r;
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
      if (widest_label + 2 <= cell.w && label_h <= cell.h) {
        const std::string label = std::string(1, KindChar(op.kind)) + Str(op.microbatch);
        Item& lab = b.Text(Role::kOpLabel, label, cell.x + cell.w / 2, cell.y + (cell.h - label_h) / 2, cell_px,
                           false, TextOn(color), 1);
        lab.clip = cell;
        lab.run = r;
        lab.device = op.device;
        lab.tick0 = op.start;
        lab.tick1 = op.end;
        lab.op_kind = KindChar(op.kind);
        lab.microbatch = op.microbatch;
        lab.stage = op.stage;
        lab.from = op.end;  // once the cell is complete
      }
    }

    // Bubbles: each device's idle intervals within [0, makespan).
    std::vector<std::vector<std::pair<Tick, Tick>>> busy(P);
    for (const PlacedOp& op : ops) busy[op.device].emplace_back(op.start, op.end);
    for (int d = 0; d < P; ++d) {
      std::sort(busy[d].begin(), busy[d].end());
      Tick cursor = 0;
      // One cell per idle cycle, so that the bubble can be counted.
      auto bubble = [&](Tick a, Tick e) {
        for (Tick k = a; k < e; ++k) {
          const double bx = f.X(k), bx1 = f.X(k + 1);
          Item& it = b.Rect(Role::kBubble,
                            {bx + gx, row_y(d) + gy, std::max(1.0, bx1 - bx - 2 * gx), std::max(1.0, g.row_h - 2.0 * gy)},
                            palette::kBubble);
          it.run = r;
          it.device = d;
          it.tick0 = k;
          it.tick1 = k + 1;
          it.from = k + 1;
        }
      };
      for (const auto& [s, e] : busy[d]) {
        bubble(cursor, s);
        cursor = std::max(cursor, e);
      }
      bubble(cursor, t.makespan);
    }

    // The gauge: one bar per tick, on the shared scale.
    const double gb = g.gauge_y + g.gauge_h;
    b.Rect(Role::kGaugeBack, {f.x0, g.gauge_y, f.X(f.T) - f.x0, static_cast<double>(g.gauge_h)}, palette::kGaugeBack)
        .run = r;
    const double scale = static_cast<double>(std::max<std::int64_t>(1, list.gauge_scale));
    // The run's peak as a line behind its bars, from the tick it is reached.
    Tick peak_tick = -1;
    for (Tick k = 0; k < t.makespan && peak_tick < 0; ++k) {
      if (m.activations.cluster.At(k) == m.peak_activations) peak_tick = k;
    }
    if (peak_tick >= 0 && m.peak_activations > 0) {
      const double py = gb - std::round(static_cast<double>(m.peak_activations) / scale * g.gauge_h) + 0.5;
      Item& it = b.Line(Role::kPeakLine, f.x0, py, f.X(f.T), py, 1, Mix(palette::kHeld, palette::kText, 0.5));
      it.run = r;
      it.value = m.peak_activations;
      it.from = peak_tick + 1;
    }
    for (Tick k = 0; k < t.makespan; ++k) {
      const std::int64_t held = m.activations.cluster.At(k);
      if (held <= 0) continue;
      const double bh = std::round(static_cast<double>(held) / scale * g.gauge_h);
      const double bx = f.X(k), bx1 = f.X(k + 1);
      Item& it = b.Rect(Role::kGaugeBar, {bx + gx, gb - bh, std::max(1.0, bx1 - bx - 2 * gx), bh}, palette::kHeld);
      it.run = r;
      it.tick0 = k;
      it.tick1 = k + 1;
      it.value = held;
      it.from = k + 1;
    }
    Item& held_label = b.Text(Role::kGaugeLabel, "held", f.x0 - 0.5 * label_px,
                              g.gauge_y + (g.gauge_h - dlh) / 2, label_px, false, palette::kMutedText, 2);
    held_label.run = r;

    // Tick axis, thinned so that labels never touch.
    const double digit_w = b.Measure(Str(f.T - 1), label_px, false).w;
    const std::int64_t step = NiceStep(digit_w + label_px, f.cw);
    b.Text(Role::kAxisLabel, "cycle", f.x0 - 0.5 * label_px, g.axis_y, label_px, false, palette::kMutedText, 2).run = r;
    for (Tick k = 0; k < f.T; k += step) {
      Item& it = b.Text(Role::kAxisLabel, Str(k), (f.X(k) + f.X(k + 1)) / 2, g.axis_y, label_px, false,
                        palette::kMutedText, 1);
      it.run = r;
      it.tick0 = k;
    }

    // "Now": a cursor at the current tick while the animation runs.
    for (Tick k = 1; k < f.T; ++k) {
      Item& it = b.Line(Role::kCursor, f.X(k) + 0.5, g.gantt_y, f.X(k) + 0.5, gb, 1, palette::kCursor);
      it.run = r;
      it.tick0 = k;
      it.from = k;
      it.until = k + 1;
    }
  }

  // Closing lines.
  double cy = bottom + (list.closing.empty() ? 0 : 0.3 * closing_px);
  for (size_t i = 0; i < list.closing.size(); ++i) {
    Item& it = b.Text(Role::kClosing, list.closing[i], W / 2, cy, closing_px_each[i], false, palette::kText, 1);
    it.from = list.last_tick;
    cy += b.LineHeight(closing_px_each[i]) * 1.2;
  }
  return list;
}

}  // namespace ppsim::render

#include "chart_layout.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chart_parts.h"
#include "color_util.h"
#include "gauge_bytes.h"
#include "ppsim/cost_scale.h"
#include "ppsim/rational.h"

namespace ppsim::render {
namespace {

using chart::Align;
using chart::Chart;
using chart::NiceStep;
using chart::PowerStep;

void DeviceLabels(const Chart& c) {
  const double lh = c.b.LineHeight(c.style.label_px);
  const int step = PowerStep(lh * 1.05, c.Pitch());  // thinned so that labels never touch
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

// The run's marks (RunMark): a bar along the bottom of its device's row over
// its ticks, and its label at the row's top, ending where the bar ends (above
// the centred op labels), unless it would touch another label: both shown
// once the bar's end is played.
void Marks(const Chart& c, const std::vector<RunMark>& marks) {
  if (marks.empty()) return;
  const double bar = std::max(2.0, std::floor(c.g.row_h / 6.0));
  const double px = std::min(c.style.label_px, std::floor(c.g.row_h * 0.25));
  const bool labelled = px >= c.b.MinPx();
  const double lh = labelled ? c.b.LineHeight(px, true) : 0;
  auto touches = [&](const Box& box) {
    for (const Item& it : c.b.Items())
      if (it.kind == ItemKind::kText && it.run == c.run && (it.role == Role::kOpLabel || it.role == Role::kMark) &&
          it.box.x < box.right() && box.x < it.box.right() && it.box.y < box.bottom() && box.y < it.box.bottom())
        return true;
    return false;
  };
  for (const RunMark& m : marks) {
    const int row = m.device / c.f.rows_per;
    const double x = c.f.X(m.from), x1 = std::max(x + 1, c.f.X(m.to));
    const double bottom = c.RowY(row) + c.g.row_h - c.style.gy;
    Item& it = c.b.Rect(Role::kMark, {x, bottom - bar, x1 - x, bar}, palette::kMark);
    it.run = c.run;
    it.device = m.device;
    it.tick0 = m.from;
    it.tick1 = m.to;
    it.value = m.value;
    it.from = m.to;
    if (!labelled || m.text.empty() || c.RowY(row) + c.style.gy + lh > bottom - bar) continue;
    const double w = c.b.Measure(m.text, px, true).w;
    const Box box{x1 - w, c.RowY(row) + c.style.gy, w, lh};
    if (box.x < c.f.x0 || touches(box)) continue;
    Item& lab = c.b.Text(Role::kMark, m.text, x1, box.y, px, true, palette::kMark, Align::kRight);
    lab.run = c.run;
    lab.device = m.device;
    lab.tick0 = m.from;
    lab.tick1 = m.to;
    lab.value = m.value;
    lab.from = m.to;
  }
}

// Tick numbers under the gauge, on a 1-2-5 step wide enough that they never
// touch, and "finish 18" ending at this run's finish line once it is done.
void Axis(const Chart& c) {
  const double px = c.style.label_px;
  const std::int64_t step = NiceStep(c.b.Measure(Str(c.f.T - 1), px, false).w + px, c.f.cw);
  c.b.Text(Role::kAxisLabel, c.f.ns ? "\u00B5s" : "cycle", c.f.x0 - 0.5 * px, c.g.axis_y, px, false, palette::kMutedText, Align::kRight)
      .run = c.run;
  const std::string finish = "finish " + TimeText(c.t.makespan, c.f.ns) + (c.f.ns ? " \u00B5s" : "");
  const double fw = c.b.Measure(finish, px, true).w;
  const double fx = std::max(c.f.x0, c.f.X(c.t.makespan) - fw);
  Item& fin = c.b.Text(Role::kFinish, finish, fx, c.g.axis_y, px, true, palette::kText);
  fin.run = c.run;
  fin.tick0 = c.t.makespan;
  fin.from = c.t.makespan;
  for (Tick k = 0; k < c.f.T; k += step) {
    const std::string text = TimeText(k, c.f.ns);
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
    Item& it = c.b.Text(Role::kIdleCount, "idle " + TimeText(idle, c.f.ns), c.f.X(c.f.T) + 0.4 * c.style.label_px,
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

std::string GaugeText(std::int64_t value, std::int64_t den, bool bytes) {
  return bytes ? ByteText(value) : Sets(value, den);
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
  const Chart c{b, f, g, style, run.run->timeline, run.metrics(), index, run.send};
  b.Rect(Role::kGrid, {f.x0, g.gantt_y, f.X(c.t.makespan) - f.x0, static_cast<double>(c.Rows() * c.Pitch())},
         palette::kGrid)
      .run = index;
  DeviceLabels(c);
  const std::vector<PlacedOp> ops = c.t.Ops();
  if (f.rows_per > 1 || (f.agg > 1 && !f.ns)) {
    chart::StripCells(c, ops);
  } else {
    chart::OpCells(c, ops);
    chart::BubbleCells(c, ops);
    chart::ZeroCells(c, ops);
  }
  if (g.lane_h > 0) chart::CommLanes(c);
  Marks(c, run.marks);
  chart::Gauge(c, gauge_scale, gauge_den);
  FinishLines(c);
  IdleCounts(c, IdlePerDevice(c.t));
  Axis(c);
  Cursor(c);
}

}  // namespace ppsim::render

// The memory gauge of one chart (chart_parts.h).
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

// The bars of one series (cluster or one device) between `top` and `bottom`:
// one bar per strip of cycles, its height the largest value held in it, in
// 1/gauge_den stage-sets over `scale`; `usable` pixels is the scale's full
// height. A line at the series' peak appears once the peak is reached and
// grows with the cycles played, never ahead of them. Returns the line's y
// (or -1 when nothing is ever held) and sets *peak_tick. When the gauge
// counts bytes, `sent` is the send buffers' share of `held`, drawn on the
// top of its bar in their own colour (taken at the strip's fullest tick).
template <typename HeldAt, typename SentAt>  // std::int64_t(Tick): held in that tick, and its send buffers
double GaugeSeries(const Chart& c, const HeldAt& held, const SentAt& sent, std::int64_t series_peak,
                   std::int64_t per_set, std::int64_t scale, double bottom, double usable, int device,
                   Tick* peak_tick) {
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
    Tick fullest = k;
    for (Tick x = k; x < e; ++x)
      if (const std::int64_t v = held(x); v > value) {
        value = v;
        fullest = x;
      }
    value *= per_set;
    if (value <= 0) continue;
    const double h = std::round(static_cast<double>(value) / full * usable);
    Box cell = c.Cell(k, e, bottom - h, h + 2 * c.style.gy);
    if (c.f.ns) cell = {c.f.X(k), cell.y, std::max(1.0, c.f.X(e) - c.f.X(k)), cell.h};  // strips of time, no gaps
    auto bar = [&](Role role, double height, Color color, std::int64_t v) {
      Item& it = c.b.Rect(role, {cell.x, bottom - h, cell.w, height}, color);
      it.run = c.run;
      it.device = device;
      it.tick0 = k;
      it.tick1 = e;
      it.value = v;
      it.from = e;
    };
    bar(Role::kGaugeBar, h, palette::kHeld, value);
    const std::int64_t send = value > 0 ? sent(fullest) : 0;
    if (send <= 0) continue;
    bar(Role::kSendBuffer, std::min(h, std::max(1.0, std::round(static_cast<double>(send) / full * usable))),
        palette::kSendBuffer, send);
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
  const bool bytes = c.style.gauge_bytes;
  const std::int64_t per_set = bytes ? 1 : den / ChunksPerStage(c.t.problem);
  Tick peak_tick = -1;
  const StepSeries& cluster = c.m.activations.cluster;
  const StepSeries* sent = c.send != nullptr ? &c.send->shown : nullptr;
  const double y = GaugeSeries(
      c, [&](Tick k) { return cluster.At(k); }, [&](Tick k) { return sent != nullptr ? sent->At(k) : 0; },
      c.m.activations.peak, per_set, scale, bottom, usable, -1, &peak_tick);
  if (roomy && y >= 0) {
    const std::int64_t peak = c.m.activations.peak * per_set;
    const std::string text = (c.style.gauge == GaugeMode::kFullest ? "fullest device peak " : "peak ") +
                             GaugeText(peak, den, bytes) + (bytes ? "" : " stage-sets");
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
    Item& range = c.b.Text(Role::kGaugeLabel, "0\u2013" + GaugeText(scale, den, bytes), x_label, c.g.gauge_y + (c.g.gauge_h - lh) / 2,
                           px, false, palette::kMutedText, Align::kRight);
    range.run = c.run;
    range.value = scale;
    return;
  }
  // Centred on the top of the bars' range, else just above it (no lower than
  // a line above the "0").
  const double top = std::max<double>(c.g.gauge_y, std::min(bottom - usable - lh / 2, bottom - 2 * lh));
  Item& max = c.b.Text(Role::kGaugeLabel, GaugeText(scale, den, bytes), x_label, top, px, false, palette::kMutedText, Align::kRight);
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
  const bool bytes = c.style.gauge_bytes;
  const std::int64_t per_set = bytes ? 1 : den / ChunksPerStage(c.t.problem);
  auto text = [&](std::int64_t v) { return GaugeText(v, den, bytes); };
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
    listed += (lane > 0 ? " \u00B7 " : "") + text(peaks[lane] * per_set);
  }
  const std::string head_text =
      std::string(bytes ? "held per device, in bytes" : "held per device, in stage-sets") + " (a full lane = " +
      text(scale) + ")";
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
    auto sent = [&](Tick k) -> std::int64_t {  // the send buffers of the first device holding the most
      if (c.send == nullptr) return 0;
      int fullest = d0;
      for (int d = d0 + 1; d < d1; ++d)
        if (c.m.activations.per_device[d].At(k) > c.m.activations.per_device[fullest].At(k)) fullest = d;
      return c.send->per_device[fullest].At(k);
    };
    Tick peak_tick = -1;
    const double y =
        GaugeSeries(c, held, sent, peaks[lane], per_set, scale, bottom - 1, lane_h - 1, d0, &peak_tick);
    if (!labelled) continue;
    const std::string name = d1 - d0 > 1 ? "d" + Str(d0) + "\u2013" + Str(d1 - 1) : "d" + Str(d0);
    Item& lab = c.b.Text(Role::kGaugeLabel, name, x_label, lane_top + (lane_h - lane_lh) / 2, lane_px, false,
                         palette::kMutedText, Align::kRight);
    lab.run = c.run;
    lab.device = d0;
    if (y < 0) continue;
    const double ly = std::clamp(y - lane_lh / 2, lane_top, bottom - lane_lh);
    Item& value = c.b.Text(Role::kGaugeLabel, "peak " + text(peaks[lane] * per_set), c.f.X(c.f.T) + 0.4 * px,
                           ly, lane_px, false, palette::kText);
    value.run = c.run;
    value.device = d0;
    value.value = peaks[lane] * per_set;
    value.from = peak_tick + 1;
  }
}

}  // namespace

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

}  // namespace ppsim::render::chart

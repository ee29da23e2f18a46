#include "ppsim/render/layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "chart_layout.h"
#include "run_texts.h"
#include "color_util.h"
#include "gauge_bytes.h"
#include "layout_builder.h"
#include "legend.h"
#include "ppsim/cost_scale.h"
#include "ppsim/memory.h"
#include "ppsim/rational.h"
#include "ppsim/render_limits.h"

namespace ppsim::render {
namespace {

using Align = Builder::Align;

// The list's header fields and one RunSummary per run.
// "work differs: 1F1B busy 64 · ZB-H1 busy 96 ticks", when the runs do not
// do the same work (a scene gave one its own costs); "" when they do.
// Runs scaled apart (ticks_per_unit) are compared in units of the model.
std::string WorkDiffers(const LayoutInput& in) {
  if (in.ns_ticks) return "";  // measured against ideal: the work differs by what was measured (ppsim explain)
  auto tpu = [](const Run& r) { return std::max<std::int64_t>(1, r.timeline.problem.ticks_per_unit); };
  const Run& first = *in.runs[0].run;
  bool differs = false, one_scale = true, model_differs = false;
  // The model's work leaves out recompute (R ops redo forwards by choice).
  auto model = [](const Run& r) { return r.metrics.busy - r.metrics.recompute_time; };
  for (const RunInput& input : in.runs) {
    const Run& r = *input.run;
    differs = differs || static_cast<__int128>(r.metrics.busy) * tpu(first) !=
                             static_cast<__int128>(first.metrics.busy) * tpu(r);
    model_differs = model_differs ||
                    static_cast<__int128>(model(r)) * tpu(first) != static_cast<__int128>(model(first)) * tpu(r);
    one_scale = one_scale && tpu(r) == tpu(first);
  }
  if (!differs) return "";
  if (!model_differs && one_scale) {  // "same model; recompute adds R: Recompute busy 128 = 96 + 32 of R"
    std::string s = "same model; recompute adds R:";
    for (const RunInput& input : in.runs)
      if (const Run& r = *input.run; r.metrics.recompute_time > 0)
        s += " " + r.name + " busy " + Str(r.metrics.busy) + " = " + Str(model(r)) + " + " +
             Str(r.metrics.recompute_time) + " of R";
    return s + " ticks";
  }
  std::string s = "work differs:";
  for (size_t i = 0; i < in.runs.size(); ++i) {
    const Run& r = *in.runs[i].run;
    const std::optional<Rational> units = Rational::Of(r.metrics.busy, tpu(r));
    s += (i == 0 ? " " : " · ") + r.name + " busy " +
         (one_scale ? Str(r.metrics.busy) : units ? units->ToText() : std::string("?"));
  }
  return s + (one_scale ? " ticks" : " stage-units") + " — the runs are not given the same model";
}

void Summarize(const LayoutInput& in, DisplayList& list) {
  list.width = in.width;
  list.height = in.height;
  list.display_width = in.display_width > 0 ? in.display_width : in.width;
  list.title = in.title;
  list.subtitle = in.subtitle.empty() ? DefaultSubtitle(in.runs) : in.subtitle;
  list.closing = in.closing;
  if (std::string work = WorkDiffers(in); !work.empty()) list.closing.push_back(std::move(work));
  list.gauge = in.gauge;
  list.gauge_bytes = in.runs[0].send != nullptr;
  // Gauges count stage-sets: 1/gauge_den of one is whole for every run (or bytes).
  for (const RunInput& r : in.runs)
    if (!list.gauge_bytes) list.gauge_den = std::lcm(list.gauge_den, std::int64_t{ChunksPerStage(r.run->timeline.problem)});
  for (const RunInput& r : in.runs) {
    const Timeline& t = r.run->timeline;
    const Metrics& m = r.metrics();
    list.last_tick = std::max(list.last_tick, t.makespan);
    const std::int64_t per_set = list.gauge_bytes ? 1 : list.gauge_den / ChunksPerStage(t.problem);
    std::int64_t peak = m.activations.peak;
    if (in.gauge == GaugeMode::kDevice) {
      peak = 0;
      for (std::int64_t d : m.activations.peak_per_device) peak = std::max(peak, d);
    }
    list.gauge_scale = std::max(list.gauge_scale, peak * per_set);
    list.runs.push_back({r.run->name, r.caption.empty() ? r.run->name : r.caption, t.problem, m});
  }
}

// Title and subtitle from the top margin; returns the y below them.
double Header(Builder& b, const Frame& f, const DisplayList& list, double text_w) {
  double y = f.margin;
  if (!list.title.empty()) {  // wrapped where even the smallest size is too wide (a phone's page)
    const double px = b.Fit(list.title, f.Font(40), true, text_w);
    y += b.Paragraph(Role::kTitle, list.title, f.margin, y, px, true, palette::kText, text_w) + 0.15 * px;
  }
  const double px = b.Fit(list.subtitle, f.Font(24), false, text_w);
  return y + b.Paragraph(Role::kSubtitle, list.subtitle, f.margin, y, px, false, palette::kMutedText, text_w) +
         0.5 * px;
}

// The closing lines, centred, from `top`, on the final frame only.
struct ClosingLine {
  std::string text;
  double px = 0;
};

// The closing lines as drawn: each at the size that fits, up to `px`; a line
// that would shrink under 1.5 times the labels' size (`label_px`) is broken
// in two at the word nearest its middle (" · " first), so that the message
// stays larger than the chart's labels in a narrow frame.
std::vector<ClosingLine> ClosingLines(Builder& b, const std::vector<std::string>& closing, double px, double label_px,
                                      double text_w) {
  std::vector<ClosingLine> out;
  for (const std::string& line : closing) {
    const double whole = b.Fit(line, px, false, text_w);
    size_t cut = std::string::npos;
    if (whole < 1.5 * label_px) {
      const std::string sep = line.find(" \u00B7 ") != std::string::npos ? " \u00B7 " : " ";
      for (size_t at = line.find(sep); at != std::string::npos; at = line.find(sep, at + 1))
        if (cut == std::string::npos || (at > line.size() / 2 ? at - line.size() / 2 : line.size() / 2 - at) <
                                            (cut > line.size() / 2 ? cut - line.size() / 2 : line.size() / 2 - cut))
          cut = at;
      if (cut != std::string::npos) {
        const std::string head = line.substr(0, cut), tail = line.substr(cut + sep.size());
        const double both = std::min(b.Fit(head, px, false, text_w), b.Fit(tail, px, false, text_w));
        if (both > whole) {
          out.push_back({head, both});
          out.push_back({tail, both});
          continue;
        }
      }
    }
    out.push_back({line, whole});
  }
  // Still too wide at the smallest size (a phone's page): at its words.
  std::vector<ClosingLine> wrapped;
  for (const ClosingLine& line : out)
    for (const std::string& part : b.Wrap(line.text, line.px, false, text_w)) wrapped.push_back({part, line.px});
  return wrapped;
}

void Closing(Builder& b, const DisplayList& list, const std::vector<ClosingLine>& lines, double top) {
  for (const ClosingLine& line : lines) {
    Item& it = b.Text(Role::kClosing, line.text, list.width / 2.0, top, line.px, false, palette::kText,
                      Align::kCenter);
    it.from = list.last_tick;
    top += b.LineHeight(line.px) * 1.2;
  }
}

int MaxOf(const std::vector<RunInput>& runs, int Problem::*field) {
  int v = 1;
  for (const RunInput& r : runs) v = std::max(v, r.run->timeline.problem.*field);
  return v;
}

// How a run's flexible height is shared between its device rows and its gauge.
struct SplitRule {
  int rows = 1;           // device rows (or rows of devices)
  double gap = 0;         // between the rows and the gauge
  double grow = 1;        // rows stop at 64 px, a cluster gauge at 150 px, times this
  double head = 0;        // a line of label text: the cluster gauge's least height, the lanes' header
  bool device = false;    // one lane per device
  double lane_min = 4;    // a lane's least height (5 px where viewed)
  double lane_label = 0;  // a lane tall enough for its 9 px labels ("d0", "peak 4")
};
struct Split {
  int row_h = 0, gauge_h = 0;
  bool ok = false;  // rows of a pixel at least, and a gauge as the rule asks
};
Split SplitHeight(double flexible, const SplitRule& r) {
  Split s;
  if (!r.device) {  // rows get 3/4; the gauge at least a line of its label
    s.row_h = static_cast<int>(std::floor(std::min(flexible * 0.75 / r.rows, 64 * r.grow)));
    // The gauge keeps two lines, its 0 and its maximum apart, where the rows can spare them.
    const double spare = std::floor((flexible - r.gap - 2 * r.head) / r.rows);
    if (flexible - r.rows * s.row_h - r.gap < 2 * r.head && spare >= 1)
      s.row_h = std::min(s.row_h, static_cast<int>(spare));
    s.gauge_h = std::max(0, static_cast<int>(std::floor(std::min(flexible - r.rows * s.row_h - r.gap, 150 * r.grow))));
    s.ok = s.row_h >= 1 && s.gauge_h >= r.head;
    return s;
  }
  // A lane per device: each device's share is its row and its lane; a lane
  // gets what its labels need when the share is twice that, else 2/5 of it,
  // and what the rows' cap leaves over, up to a row's height.
  const double per = (flexible - r.gap - r.head) / r.rows;
  double lane = per >= 2 * r.lane_label ? r.lane_label : std::max(r.lane_min, std::floor(per * 0.4));
  s.row_h = static_cast<int>(std::floor(std::min(per - lane, 64 * r.grow)));
  lane = std::floor(std::min(per - s.row_h, std::max<double>(lane, s.row_h)));
  s.gauge_h = static_cast<int>(std::ceil(r.head)) + r.rows * static_cast<int>(lane);
  s.ok = s.row_h >= r.lane_min && lane >= r.lane_min;
  return s;
}

// The communication lane's share of a device row's `pitch` (frame pixels;
// `frame_per_display` frame pixels make a pixel where the picture is
// viewed): a quarter, at least 4 viewed pixels (2 for its sends, 2 for its
// receives), at most half; none in a pitch under 2 pixels.
int CommLaneHeight(int pitch, double frame_per_display) {
  if (pitch < 2) return 0;
  const int least = static_cast<int>(std::ceil(4 * frame_per_display - 1e-9));
  return std::min(pitch / 2, std::max(least, pitch / 4));
}

// Cycles per column strip: 1 while a cycle is two pixels wide or more where
// the picture is viewed (`viewed` display pixels per frame pixel), else as
// many as make a strip that wide, so that what is drawn follows what can be
// seen, not how many ops there are. A text layout (`cells`) counts character
// cells and aggregates only under one.
int TicksPerStrip(double cw, double viewed, bool cells) {
  const double w = cw * viewed;
  return w >= (cells ? 1 : 2) ? 1 : static_cast<int>(std::ceil(2.0 / w));
}

// "aggregated: one column = 3 cycles · one row = 2 devices: ..." and a
// video's "the video plays 7 cycles a frame", under the legend.
double AggregationNote(Builder& b, const Frame& f, double y, double text_w, Tick ticks_per_frame, bool comms) {
  const int agg = f.ns ? 1 : f.agg;  // ns ticks: every op is its own cell (LayoutInput::ns_ticks)
  if (agg == 1 && f.rows_per == 1 && ticks_per_frame <= 1) return y;
  std::string note;
  if (agg > 1 || f.rows_per > 1) {
    note = "aggregated:";
    if (agg > 1) note += " one column = " + Str(agg) + " cycles";
    if (f.rows_per > 1) note += std::string(agg > 1 ? " ·" : "") + " one row = " + Str(f.rows_per) + " devices";
    note += " · a cell shows the kinds done in it, the bubble where idle half the time or more";
    // A lane needs a device's own row (docs/rendering.md, "Large runs").
    if (comms && f.rows_per > 1) note += " · no communication lanes: they need a row per device";
  }
  if (ticks_per_frame > 1) note += (note.empty() ? "" : " · ") + ("the video plays " + Str(ticks_per_frame) + " cycles a frame");
  const double px = b.Fit(note, f.Font(18), false, text_w);
  return y + b.Paragraph(Role::kNote, note, f.margin, y, px, false, palette::kText, text_w) + 0.4 * px;
}

}  // namespace

std::string DefaultSubtitle(const std::vector<RunInput>& runs) {
  std::set<int> Ps, Ms, vs;
  for (const RunInput& r : runs) {
    Ps.insert(r.run->timeline.problem.P);
    Ms.insert(r.run->timeline.problem.M);
    vs.insert(r.run->timeline.problem.v);
  }
  auto join = [](const std::set<int>& values) {
    std::string out;
    for (int v : values) {
      if (!out.empty()) out += " / ";
      out += std::to_string(v);
    }
    return out;
  };
  const bool chunked = *vs.rbegin() > 1;
  std::string s = join(Ps) + (chunked ? " devices" : " stages") + " · " + join(Ms) + " microbatches";
  if (chunked && vs.size() == 1) s += " · v = " + join(vs) + " chunks per device";
  if (vs.size() > 1) {  // each run's own count: "chunks per device: 1F1B 1 · ZB-V 2"
    s += " · chunks per device:";
    for (size_t i = 0; i < runs.size(); ++i)
      s += (i == 0 ? " " : " · ") + runs[i].run->name + " " + std::to_string(runs[i].run->timeline.problem.v);
  }
  return s + " · one cell = one cycle";
}

namespace {

// The fullest device's gauge is the cluster gauge drawn from another series:
// each run's metrics with activations.cluster the most any one device holds
// at each tick, resident from the start of F to the end of its B or W, and
// activations.peak that series' peak (Metrics::resident_peak_per_device's
// largest). `storage` keeps the copies the returned input points to.
LayoutInput FullestDeviceInput(const LayoutInput& in, std::vector<Metrics>& storage) {
  LayoutInput out = in;
  storage.reserve(in.runs.size());
  for (const RunInput& r : in.runs) {
    Metrics m = r.metrics();
    const Activations resident = MeasureActivations(r.run->timeline, HoldMode::kResident, true);
    m.activations.cluster = FullestDevice(resident.per_device);
    m.activations.peak = m.activations.cluster.Peak();
    storage.push_back(std::move(m));
  }
  for (size_t i = 0; i < out.runs.size(); ++i) out.runs[i].shown = &storage[i];
  return out;
}

Result<DisplayList> LayoutRuns(const LayoutInput& in, TextMeasurer& measurer, const std::set<int>& mixes);

// Laid out again until the legend lists every mix of kinds an aggregated
// cell is drawn in (listing one can take a line, and so change the rows and
// the mixes); a mix once listed stays listed.
Result<DisplayList> LayoutListingMixes(const LayoutInput& in, TextMeasurer& measurer) {
  std::set<int> mixes;
  for (int pass = 0;; ++pass) {
    Result<DisplayList> list = LayoutRuns(in, measurer, mixes);
    if (!list.ok() || pass == 3) return list;
    const size_t listed = mixes.size();
    for (const Item& it : list->items)
      if (it.role == Role::kOp && it.op_kind == 'A' && (it.value & (it.value - 1)) != 0)
        mixes.insert(static_cast<int>(it.value));
    if (mixes.size() == listed) return list;
  }
}

}  // namespace

Result<DisplayList> Layout(const LayoutInput& in, TextMeasurer& measurer) {
  if (GaugeInBytes(in.runs)) {  // send buffers stacked on the activations, in bytes (gauge_bytes.h)
    std::vector<Metrics> storage;
    std::vector<GaugeSend> sends;
    return LayoutListingMixes(BytesGaugeInput(in, storage, sends), measurer);
  }
  if (in.gauge != GaugeMode::kFullest) return LayoutListingMixes(in, measurer);
  std::vector<Metrics> storage;
  return LayoutListingMixes(FullestDeviceInput(in, storage), measurer);
}

namespace {

Result<DisplayList> LayoutRuns(const LayoutInput& in, TextMeasurer& measurer, const std::set<int>& mixes) {
  if (in.runs.empty()) return Fail(ErrorCode::kInvalidValue, "render: the scene has no runs");
  if (in.width < kMinFramePx || in.height < kMinFramePx || in.width > kMaxFramePx || in.height > kMaxFramePx) {
    return Fail(ErrorCode::kInvalidValue,
                "render: frame size " + Str(in.width) + "x" + Str(in.height) + " is outside " + FrameRangeText());
  }
  DisplayList list;
  Summarize(in, list);
  Frame f;
  f.T = std::max<Tick>(1, list.last_tick);
  f.ns = in.ns_ticks;
  f.s = std::min(in.width / 1920.0, in.height / 1080.0);
  f.margin = std::max(4.0, std::round(24 * f.s));
  const double W = in.width, H = in.height;
  const double text_w = W - 2 * f.margin;
  Builder b(list, measurer);
  f.min_px = b.MinPx();
  b.Rect(Role::kBackground, {0, 0, W, H}, palette::kBackground);
  const double header_end = Header(b, f, list, text_w);
  // The legend, and under it what differs in the runs' work (said from the
  // first frame, not only at the end); `lanes`: the charts draw comm lanes.
  auto legend = [&](bool lanes) {
    double end = Legend(b, f, in, header_end, mixes, lanes);
    if (std::string work = WorkDiffers(in); !work.empty()) {
      const double px = b.Fit(work, f.Font(18), false, text_w);
      end += b.Paragraph(Role::kLegendLabel, work, f.margin, end, px, false, palette::kText, text_w) + 0.4 * px;
    }
    return end;
  };
  double legend_end = legend(AnyComms(in.runs));

  // The closing lines' block at the bottom.
  const double closing_px = std::max(f.Font(26), 1.5 * f.Font(16));  // at least 1.5x the labels (Font(16))
  const std::vector<ClosingLine> closing_lines = ClosingLines(b, list.closing, closing_px, f.Font(16), text_w);
  double closing_h = 0;
  for (const ClosingLine& line : closing_lines) closing_h += b.LineHeight(line.px) * 1.2;
  const double bottom = H - f.margin - closing_h - (list.closing.empty() ? 0 : 0.3 * closing_px);

  // Horizontal: a label column, the ticks, then a column for each row's idle count.
  const int maxP = MaxOf(in.runs, &Problem::P);
  ChartStyle style;
  style.label_px = f.Font(16);
  std::string last_device = "d";
  last_device += Str(maxP - 1);
  style.gauge = in.gauge;
  style.gauge_bytes = list.gauge_bytes;
  const std::string scale_text = GaugeText(list.gauge_scale, list.gauge_den, list.gauge_bytes);
  const double label_w = std::max({b.Measure(last_device, style.label_px, false).w,
                                   b.Measure("held", style.label_px, false).w,
                                   b.Measure("cycle", style.label_px, false).w,
                                   b.Measure(scale_text, style.label_px, false).w,
                                   b.Measure("0\u2013" + scale_text, style.label_px, false).w});  // a low gauge's
  Tick most_idle = 0;
  for (const RunSummary& r : list.runs) most_idle = std::max(most_idle, r.metrics.idle);
  // The column right of the chart: each row's idle count, and with one gauge
  // per device each lane's peak ("peak 3.5"; no wider than the scale's).
  double right_w = b.Measure("idle " + Str(most_idle), style.label_px, false).w;
  if (in.gauge == GaugeMode::kDevice) right_w = std::max(right_w, b.Measure("peak " + scale_text, style.label_px, false).w);
  const double idle_w = right_w + 0.4 * style.label_px;
  f.x0 = std::round(f.margin + label_w + 0.6 * style.label_px);
  f.right = W - f.margin;
  f.x1 = std::round(f.right - idle_w);
  f.cw = (f.x1 - f.x0) / static_cast<double>(f.T);
  if (f.x1 - f.x0 < 16) {
    return Fail(ErrorCode::kLegibility, "render: no room for the chart in " + Str(in.width) + " pixels; use a wider size");
  }
  const double viewed = list.display_width / W;  // display pixels per frame pixel
  f.agg = TicksPerStrip(f.cw, viewed, in.cells);
  for (const RunSummary& r : list.runs) style.finishes.push_back(r.metrics.makespan);
  std::sort(style.finishes.begin(), style.finishes.end());
  style.finishes.erase(std::unique(style.finishes.begin(), style.finishes.end()), style.finishes.end());

  // Vertical: what is left is split between the runs; rows get 3/4 of each share.
  const int R = static_cast<int>(in.runs.size());
  const double caption_px = f.Font(22), status_px = f.Font(18);
  const double line_h = std::max(b.LineHeight(caption_px, true), b.LineHeight(status_px));
  // Caption and status side by side, or in a narrow frame each caption over its status.
  const RunTextsPlan texts = PlanRunTexts(b, f, in.runs, caption_px, status_px, text_w, in.gauge);
  const double caption_h = texts.stacked ? texts.caption_lines * b.LineHeight(caption_px, true) +
                                               texts.status_lines * b.LineHeight(texts.status_px)
                                         : line_h;
  const double axis_h = b.LineHeight(style.label_px);
  const double gap = std::max(2.0, std::round(6 * f.s));
  const double fixed = caption_h + 2 * gap + axis_h;
  const double run_gap = std::round(line_h * 0.6);
  // The note goes under the legend when cells aggregate; rows aggregate only
  // when a device row would be under a pixel where the picture is viewed.
  auto flexible_for = [&](int runs, double top) { return (bottom - top - runs * fixed - (runs - 1) * run_gap) / runs; };
  double y = AggregationNote(b, f, legend_end, text_w, in.ticks_per_frame, AnyComms(in.runs));
  double flexible = flexible_for(R, y);
  if (flexible * 0.75 * viewed / maxP < 1 && flexible * 0.75 * viewed >= 1) {
    f.rows_per = static_cast<int>(std::ceil(maxP / std::floor(flexible * 0.75 * viewed)));
    // Aggregated rows have no lanes (the note says why), so the legend lists
    // none; it can only get shorter, which leaves the rows more room.
    const bool relegend = AnyComms(in.runs);
    list.items.erase(std::remove_if(list.items.begin(), list.items.end(),
                                    [&](const Item& it) {
                                      return it.role == Role::kNote ||
                                             (relegend && (it.role == Role::kLegendSwatch || it.role == Role::kLegendLabel));
                                    }),
                     list.items.end());
    if (relegend) legend_end = legend(false);
    y = AggregationNote(b, f, legend_end, text_w, in.ticks_per_frame, AnyComms(in.runs));
    flexible = flexible_for(R, y);
  }
  const int rows = (maxP + f.rows_per - 1) / f.rows_per;
  // Rows and gauges stop growing at 64 and 150 px of a 1920x1080 frame, scaled
  // by the frame's larger side ratio (not f.s, the smaller): a wide, low frame
  // of one run is filled rather than left with a band above and below.
  SplitRule rule;
  rule.rows = rows;
  rule.gap = gap;
  rule.grow = std::max(W / 1920.0, H / 1080.0);
  rule.head = b.LineHeight(style.label_px);
  rule.device = in.gauge == GaugeMode::kDevice;
  rule.lane_min = std::max(4.0, std::ceil(5.0 * W / list.display_width));
  rule.lane_label = std::ceil(b.LineHeight(f.min_px));
  const Split split = SplitHeight(flexible, rule);
  int row_h = split.row_h;
  const int gauge_h = split.gauge_h;
  // With comms modelled, each device row gives a lane under it to its transfers.
  const int lane_h = f.rows_per == 1 && AnyComms(in.runs) ? CommLaneHeight(row_h, W / list.display_width) : 0;
  row_h -= lane_h;
  if (!split.ok) {  // say how many runs would fit
    int fit = 0;
    for (int k = R - 1; k >= 1 && fit == 0; --k) {
      if (SplitHeight(flexible_for(k, y), rule).ok) fit = k;
    }
    return Fail(ErrorCode::kLegibility,
                "render: " + Str(R) + " charts of " + Str(maxP) + " devices do not fit in " + Str(in.width) + "x" +
                    Str(in.height) + " pixels (" +
                    (fit > 0 ? "at most " + Str(fit) + " fit" : "not even one fits") +
                    (rule.device ? " with a gauge per device" : "") + "); use a taller size or fewer runs" +
                    (rule.device ? ", or gauge cluster" : ""));
  }
  // Charts follow the legend directly and the closing lines follow the
  // charts: what height is left over stays at the frame's bottom, not as a
  // band between the legend and the first chart.

  style.gx = f.ns ? 1 : f.cw * f.agg >= 40 ? 2 : f.cw * f.agg >= 5 ? 1 : 0;  // ns: an op is a cell, not a cycle
  style.gy = row_h >= 24 ? 2 : row_h >= 5 ? 1 : 0;
  style.cell_px = std::min(std::floor(row_h * 0.5), f.Font(22));
  list.ticks_per_strip = f.agg;
  list.devices_per_row = f.rows_per;
  for (int r = 0; r < R; ++r) {
    RunGeometry g;
    g.caption_y = y;
    g.caption_h = caption_h;
    g.gantt_y = std::round(y + caption_h + gap);
    g.row_h = row_h;
    g.lane_h = lane_h;
    g.gauge_y = g.gantt_y + rows * (row_h + lane_h) + gap;
    g.gauge_h = gauge_h;
    g.axis_y = g.gauge_y + g.gauge_h + gap;
    y = g.axis_y + axis_h + run_gap;
    LayoutRunTexts(b, f, g, in.runs[r], r, caption_px, texts, text_w, in.gauge);
    LayoutChart(b, f, g, style, in.runs[r], r, list.gauge_scale, list.gauge_den);
  }
  const double charts_end = y - run_gap + gap;
  Closing(b, list, closing_lines, std::min(bottom, charts_end) + (list.closing.empty() ? 0 : 0.3 * closing_px));
  return list;
}

}  // namespace

}  // namespace ppsim::render

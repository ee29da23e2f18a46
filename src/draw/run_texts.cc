#include "run_texts.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "chart_layout.h"
#include "ppsim/cost_scale.h"

namespace ppsim::render {
namespace {

using Align = Builder::Align;

// The run's numbers: status[i] is shown from tick i * f.agg (what the frame
// shows is done), the last one, its totals, once the run is done.
std::vector<std::string> StatusTexts(const Frame& f, const RunInput& run, GaugeMode gauge) {
  const bool fullest = gauge == GaugeMode::kFullest;
  const Timeline& t = run.run->timeline;
  const Metrics& m = run.metrics();
  std::vector<Tick> ends;
  for (const PlacedOp& op : t.Ops()) ends.push_back(op.end);
  std::sort(ends.begin(), ends.end());
  // busy_before(k): busy device-cycles in [0, k), for k rising, swept over
  // the busy intervals' edges (not a table of every tick: a measured run's
  // ticks are nanoseconds).
  std::vector<std::pair<Tick, int>> edges;
  for (const Interval& i : BusyIntervals(t)) {
    edges.emplace_back(i.start, 1);
    edges.emplace_back(i.end, -1);
  }
  std::sort(edges.begin(), edges.end());
  size_t next = 0;
  Tick swept_to = 0;
  std::int64_t running = 0, busy = 0;
  auto busy_before = [&](Tick k) {
    for (; next < edges.size() && edges[next].first <= k; ++next) {
      busy += running * (edges[next].first - swept_to);
      swept_to = edges[next].first;
      running += edges[next].second;
    }
    busy += running * (k - swept_to);
    swept_to = k;
    return busy;
  };
  const std::string total = Str(t.schedule.op_count());
  // Held, in stage-sets: a chunk's set counts 1/ChunksPerStage; or in bytes,
  // send buffers included, when the gauge counts bytes (gauge_bytes.h).
  const std::int64_t chunks = ChunksPerStage(t.problem);
  const bool bytes = run.send != nullptr;
  auto sets = [&](std::int64_t held) { return GaugeText(held, chunks, bytes); };
  std::vector<std::string> status;
  for (Tick k = 0; k < t.makespan; k += f.agg) {
    const std::int64_t done = std::upper_bound(ends.begin(), ends.end(), k) - ends.begin();
    // One readout of the cycles, as the page's counter words it, and the
    // idle so far beside its final value: the end is foreshadowed, never
    // contradicted.
    const std::string counts = Str(done) + "/" + total + " ops · idle so far " +
                               TimeText(t.problem.P * k - busy_before(k), f.ns) + " of " + TimeText(m.idle, f.ns) +
                               (fullest ? " · fullest device " : " · held ") +
                               sets(k > 0 ? m.activations.cluster.At(k - 1) : 0);
    status.push_back((k == 0 ? std::string("not started")
                             : TimeText(k, f.ns) + " of " + TimeText(t.makespan, f.ns) + (f.ns ? " \u00B5s" : " cycles")) +
                     " · " +
                     counts);
  }
  const std::int64_t slots = static_cast<std::int64_t>(t.problem.P) * m.makespan;
  const std::string unit = f.ns ? " \u00B5s" : "";
  status.push_back("makespan " + TimeText(m.makespan, f.ns) + unit + " · idle " + TimeText(m.idle, f.ns) + " of " +
                   TimeText(slots, f.ns) + (f.ns ? " device-\u00B5s (" : " slots (") +
                   Str(slots > 0 ? (200 * m.idle + slots) / (2 * slots) : 0) + "%) · " +
                   (fullest ? "fullest device peak " : "peak ") + sets(m.activations.peak) + (bytes ? "" : " stage-sets"));
  return status;
}

// One size for all of `texts`: fitted on the longest few into `room` (digits are of equal width).
double FitAll(Builder& b, const std::vector<std::string>& texts, double px, double room) {
  std::vector<size_t> order(texts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t c) { return texts[a].size() > texts[c].size(); });
  double fitted = px;
  for (size_t i = 0; i < std::min<size_t>(order.size(), 4); ++i) fitted = std::min(fitted, b.Fit(texts[order[i]], px, false, room));
  return fitted;
}

double Widest(Builder& b, const std::vector<std::string>& texts, double px) {
  double widest = 0;
  for (const std::string& s : texts) widest = std::max(widest, b.Measure(s, px, false).w);
  return widest;
}

// "a · b · c · d" in two at the " · " nearest its middle ("" second when it has none).
std::pair<std::string, std::string> Halves(const std::string& s) {
  const std::string sep = " \u00B7 ";
  size_t cut = std::string::npos;
  auto off = [&](size_t at) { return at > s.size() / 2 ? at - s.size() / 2 : s.size() / 2 - at; };
  for (size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, at + 1))
    if (cut == std::string::npos || off(at) < off(cut)) cut = at;
  if (cut == std::string::npos) return {s, ""};
  return {s.substr(0, cut + 3), s.substr(cut + sep.size())};  // the first keeps " ·"
}

std::vector<std::string> AllHalves(const std::vector<std::string>& status) {
  std::vector<std::string> out;
  for (const std::string& s : status) {
    auto [a, c] = Halves(s);
    out.push_back(a);
    out.push_back(c);
  }
  return out;
}

}  // namespace

RunTextsPlan PlanRunTexts(Builder& b, const Frame& f, const std::vector<RunInput>& runs, double caption_px,
                          double status_px, double text_w, GaugeMode gauge) {
  RunTextsPlan plan;
  plan.status_px = status_px;
  std::vector<std::vector<std::string>> all;
  for (const RunInput& run : runs) {
    all.push_back(StatusTexts(f, run, gauge));
    const double px = FitAll(b, all.back(), status_px, 0.55 * text_w);
    const double widest = Widest(b, all.back(), px);
    const std::string caption = run.caption.empty() ? run.run->name : run.caption;
    const double cpx = b.Fit(caption, caption_px, true, text_w - widest - caption_px);
    plan.stacked = plan.stacked || f.margin + b.Measure(caption, cpx, true).w > f.right - widest;
  }
  if (!plan.stacked) return plan;
  plan.status_lines = 2;
  for (size_t r = 0; r < runs.size(); ++r) {
    plan.status_px = std::min(plan.status_px, FitAll(b, AllHalves(all[r]), status_px, text_w));
    const std::string caption = runs[r].caption.empty() ? runs[r].run->name : runs[r].caption;
    const double cpx = b.Fit(caption, caption_px, true, text_w);
    plan.caption_lines = std::max<int>(plan.caption_lines, b.Wrap(caption, cpx, true, text_w).size());
  }
  return plan;
}

void LayoutRunTexts(Builder& b, const Frame& f, const RunGeometry& g, const RunInput& run, int index,
                    double caption_px, const RunTextsPlan& plan, double text_w, GaugeMode gauge) {
  const Tick makespan = run.run->timeline.makespan;
  const std::vector<std::string> status = StatusTexts(f, run, gauge);
  auto timed = [&](Item& it, size_t i) {
    it.run = index;
    it.from = i + 1 < status.size() ? static_cast<Tick>(i) * f.agg : makespan;
    it.until = i + 2 < status.size() ? static_cast<Tick>(i + 1) * f.agg
               : i + 1 < status.size() ? makespan
                                       : kForever;
  };
  const std::string caption = run.caption.empty() ? run.run->name : run.caption;
  if (plan.stacked) {  // the caption's lines, then each status in two lines under it
    const double cpx = b.Fit(caption, caption_px, true, text_w);
    double y = g.caption_y;
    for (const std::string& line : b.Wrap(caption, cpx, true, text_w)) {
      Item& it = b.Text(Role::kCaption, line, f.margin, y, cpx, true, palette::kText);
      it.run = index;
      y += b.LineHeight(cpx, true);
    }
    const double lh = b.LineHeight(plan.status_px);
    for (size_t i = 0; i < status.size(); ++i) {
      const auto [first, second] = Halves(status[i]);
      timed(b.Text(Role::kStatus, first, f.margin, y, plan.status_px, false, palette::kMutedText), i);
      if (!second.empty())
        timed(b.Text(Role::kStatus, second, f.margin, y + lh, plan.status_px, false, palette::kMutedText), i);
    }
    return;
  }
  // One size for all: fitted on the longest few.
  const double px = FitAll(b, status, plan.status_px, 0.55 * text_w);
  const double widest = Widest(b, status, px);
  const double cpx = b.Fit(caption, caption_px, true, text_w - widest - caption_px);
  b.Text(Role::kCaption, caption, f.margin, g.caption_y, cpx, true, palette::kText).run = index;
  const double y = g.caption_y + (g.caption_h - b.LineHeight(px)) / 2;
  for (size_t i = 0; i < status.size(); ++i)
    timed(b.Text(Role::kStatus, status[i], f.right, y, px, false, palette::kMutedText, Align::kRight), i);
}

}  // namespace ppsim::render

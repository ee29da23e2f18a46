#include "run_texts.h"

#include <algorithm>
#include <string>
#include <vector>

#include "chart_layout.h"
#include "ppsim/cost_scale.h"

namespace ppsim::render {

using Align = Builder::Align;

void LayoutRunTexts(Builder& b, const Frame& f, const RunGeometry& g, const RunInput& run, int index,
                    double caption_px, double status_px, double text_w, GaugeMode gauge) {
  const bool fullest = gauge == GaugeMode::kFullest;
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
  // Held, in stage-sets: a chunk's set counts 1/ChunksPerStage.
  const std::int64_t chunks = ChunksPerStage(t.problem);
  auto sets = [&](std::int64_t held) { return Sets(held, chunks); };
  // status[i] is shown from tick i * f.agg: what the frame shows is done.
  std::vector<std::string> status;
  for (Tick k = 0; k < t.makespan; k += f.agg) {
    const std::int64_t done = std::upper_bound(ends.begin(), ends.end(), k) - ends.begin();
    // One readout of the cycles, as the page's counter words it, and the
    // idle so far beside its final value: the end is foreshadowed, never
    // contradicted.
    const std::string counts = Str(done) + "/" + total + " ops · idle so far " +
                               Str(t.problem.P * k - busy_before[k]) + " of " + Str(m.idle) +
                               (fullest ? " · fullest device " : " · held ") +
                               sets(k > 0 ? m.activations.cluster.At(k - 1) : 0);
    status.push_back((k == 0 ? std::string("not started") : Str(k) + " of " + Str(t.makespan) + " cycles") + " · " +
                     counts);
  }
  const std::int64_t slots = static_cast<std::int64_t>(t.problem.P) * m.makespan;
  status.push_back("makespan " + Str(m.makespan) + " · idle " + Str(m.idle) + " of " + Str(slots) + " slots (" +
                   Str(slots > 0 ? (200 * m.idle + slots) / (2 * slots) : 0) + "%) · " +
                   (fullest ? "fullest device peak " : "peak ") + sets(m.activations.peak) + " stage-sets");
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

}  // namespace ppsim::render

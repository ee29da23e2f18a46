#include "legend.h"

#include <algorithm>
#include <string>
#include <vector>

#include "color_util.h"
#include "ppsim/comm_run.h"

namespace ppsim::render {
namespace {

// Whether a run's collective stream has an UNSHARD or REDUCE_GRAD that takes time (drawn over its lanes).
bool AnyCollectives(const std::vector<RunInput>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const RunInput& r) {
    const auto& comms = r.run->timeline.comms;
    return comms != nullptr && std::any_of(comms->collectives.begin(), comms->collectives.end(),
                                           [](const Collective& c) { return c.end > c.start; });
  });
}

// What a later chunk (·c1, or a dark base) means in run `p`: "" when it has none.
std::string ChunkRule(const Problem& p) {
  if (p.placement == Placement::kDualPipe) {  // c1 is the second copy of the model, fed from the last device
    const int half = p.M / 2;
    return "F" + Str(half) + "\u00B7c1 or a dark base = reverse direction: microbatches " + Str(half) + "\u2013" +
           Str(p.M - 1) + " enter at d" + Str(p.P - 1) + " and run to d0";
  }
  if (p.placement == Placement::kVShape)
    return "F3\u00B7c1 or a dark base = a device's second stage, on the way back (reverse direction)";
  if (p.v > 1) return "F3\u00B7c1 or a dark base = chunk 1 (lighter)";
  return "";
}

// A legend rule that holds for some runs only, each rule once: the runs it
// holds for, in order, named before it ("DualPipe: F4·c1 ...") unless it
// holds for every run.
struct RunRule {
  std::string rule;
  std::vector<std::string> runs;
};
void AddRule(std::vector<RunRule>& rules, const std::string& rule, const std::string& run) {
  if (rule.empty()) return;
  for (RunRule& r : rules) {
    if (r.rule == rule) {
      r.runs.push_back(run);
      return;
    }
  }
  rules.push_back({rule, {run}});
}
std::string Named(const RunRule& r, size_t all_runs) {
  if (r.runs.size() == all_runs) return r.rule;
  std::string names;
  for (const std::string& n : r.runs) names += (names.empty() ? "" : ", ") + n;
  return names + ": " + r.rule;
}


// "F and B in one aggregated cell": what KindsMix(kinds) means.
std::string MixLabel(int kinds) {
  std::vector<std::string> names;
  for (int k = 0; k < 4; ++k)
    if (kinds >> k & 1) names.push_back(std::string(1, "FBWR"[k]));
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s + " in one aggregated cell";
}

}  // namespace

bool AnyComms(const std::vector<RunInput>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const RunInput& r) { return r.run->timeline.comms != nullptr; });
}

double Legend(Builder& b, const Frame& f, const LayoutInput& in, double y, const std::set<int>& mixes, bool lanes) {
  bool any_w = false, any_r = false;
  bool any_whole = false, any_input = false, any_zero = false;  // whole backwards, input-gradient Bs, ops of no time
  std::vector<RunRule> chunk_rules, pair_rules;
  for (const RunInput& r : in.runs) {
    const bool split = r.run->timeline.schedule.split_backward;
    bool pairs = false;
    for (const PlacedOp& op : r.run->timeline.Ops()) {
      pairs = pairs || op.overlap >= 0;
      any_w = any_w || op.kind == OpKind::kW;
      any_zero = any_zero || op.end == op.start;
      any_r = any_r || op.kind == OpKind::kR;
      if (op.kind == OpKind::kB) (!split || op.full ? any_whole : any_input) = true;
    }
    AddRule(chunk_rules, ChunkRule(r.run->timeline.problem), r.run->name);
    if (pairs)
      AddRule(pair_rules, "F above B in one cell = an overlapped F+B pair: a forward and a backward computed together",
              r.run->name);
  }
  struct Entry {
    Color color;
    std::string label;
    bool hatched = false;
    Color lower = palette::kBackground;  // != background: the swatch's lower half (an overlapped pair)
    bool base = false;                   // a dark bar along the bottom (a later chunk)
    bool top = false;                    // a weight-grad bar along the top (a whole backward)
    bool thin = false;                   // a thin line, as an op of no duration is drawn
  };
  std::vector<Entry> entries = {{palette::kForward, "forward (F)"}};
  if (any_whole)
    entries.push_back({palette::kBackward, any_input ? "whole backward (B + W in one op)" : "backward (B + W in one op)",
                       false, palette::kBackground, false, true});
  if (any_input) entries.push_back({palette::kBackward, "input-gradient backward (B)"});
  if (any_w) entries.push_back({palette::kWeightGrad, "weight-grad (W)"});
  if (any_r) entries.push_back({palette::kRecompute, "recompute (R): the forward again, before its B"});
  entries.push_back({palette::kBubble, "bubble (idle)", true});
  if (any_zero)
    entries.push_back({palette::kForward, "thin line: an op of no duration (a stage with no layer passes data on)",
                       false, palette::kBackground, false, false, true});
  if (in.runs[0].send != nullptr) {  // in bytes, with the send buffers on top (gauge_bytes.h)
    entries.push_back({palette::kHeld, in.gauge == GaugeMode::kFullest
                                           ? "activations on the fullest device, in bytes (F start to B/W end)"
                                           : in.gauge == GaugeMode::kCluster ? "activations held by all devices, in bytes"
                                                                             : "activations held, in bytes"});
    entries.push_back({palette::kSendBuffer, "send buffers on top: from a SEND's post to its completion, or to the "
                                             "step's end (link.send_release)"});
  } else {
    entries.push_back({palette::kHeld, in.gauge == GaugeMode::kFullest
                                           ? "activations on the fullest device, in stage-sets (F start to B/W end)"
                                           : in.gauge == GaugeMode::kCluster
                                                 ? "activations held by all devices, in stage-sets"
                                                 : "activations held, in stage-sets (one stage's, one microbatch)"});
  }
  for (const RunRule& r : chunk_rules)
    entries.push_back({OpFill(OpKind::kF, 1, 2), Named(r, in.runs.size()), false, palette::kBackground, true});
  for (const RunRule& r : pair_rules)
    entries.push_back({palette::kForward, Named(r, in.runs.size()), false, palette::kBackward});
  for (int kinds : mixes) entries.push_back({KindsMix(kinds), MixLabel(kinds)});
  if (lanes) {  // chart_comm.cc
    entries.push_back({palette::kCommPosted, "a transfer, in the lane under its device: posted (sends above, receives below)"});
    entries.push_back({palette::kCommLink, "on the link until complete; on a device row, its compute waiting on communication"});
    if (AnyCollectives(in.runs))
      entries.push_back({palette::kCollective, "UNSHARD or REDUCE_GRAD on the device's collective stream, over its lane"});
  }
  if (!in.mark_legend.empty()) entries.push_back({palette::kMark, in.mark_legend});
  const double px = f.Font(20);
  const double lh = b.LineHeight(px);
  const double sw = std::round(lh * 0.8);
  double x = f.margin;
  const double label_room = in.width - 2 * f.margin - sw - 0.4 * px;  // a label on a row of its own
  for (const Entry& e : entries) {
    const std::vector<std::string> lines = b.Wrap(e.label, px, false, label_room);
    const double need = sw + 0.4 * px + (lines.size() == 1 ? b.Measure(e.label, px, false).w : label_room);
    if (x > f.margin && x + need > in.width - f.margin) {
      x = f.margin;
      y += lh * 1.25;
    }
    const Box box{x, std::round(y + (lh - sw) / 2), sw, sw};
    b.Rect(Role::kLegendSwatch, box, e.thin ? palette::kBubble : e.color).hatched = e.hatched || e.thin;
    if (e.thin) b.Rect(Role::kLegendSwatch, {std::round(box.x + sw / 2 - 1.5), box.y, 3, sw}, e.color);
    if (!(e.lower == palette::kBackground)) {
      b.Rect(Role::kLegendSwatch, {box.x, box.y + std::round(sw / 2), sw, sw - std::round(sw / 2)}, e.lower);
    }
    if (e.base) {
      const double bar = std::max(2.0, std::floor(sw / 5));
      b.Rect(Role::kLegendSwatch, {box.x, box.bottom() - bar, sw, bar}, Mix(e.color, palette::kText, 0.65));
    }
    if (e.top) b.Rect(Role::kLegendSwatch, {box.x, box.y, sw, std::max(2.0, std::floor(sw / 5))}, palette::kWeightGrad);
    for (size_t i = 0; i < lines.size(); ++i)
      b.Text(Role::kLegendLabel, lines[i], x + sw + 0.4 * px, y + i * lh, px, false, palette::kText);
    x += need + 1.5 * px;
    if (lines.size() > 1) {  // a label wrapped in lines of its own: the next entry starts a row
      y += (lines.size() - 1) * lh;
      x = in.width;
    }
  }
  return y + lh * 1.25 + 0.4 * px;
}

}  // namespace ppsim::render

#include "ppsim/render/text_painter.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ppsim/rational.h"

namespace ppsim::render {
namespace {

const char* kBars[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

// One character cell: a UTF-8 glyph and, for colour output, the colour of
// the item that put it there.
struct Glyph {
  std::string text = " ";
  bool colored = false;
  Color color;
};
using Row = std::vector<Glyph>;

void Put(Row& row, const std::string& s, int col) {
  for (size_t i = 0; i < s.size() && col + static_cast<int>(i) < static_cast<int>(row.size()); ++i) {
    row[col + i].text = std::string(1, s[i]);
  }
}

std::string Ansi(const Glyph& g, bool gauge) {
  const Color c = g.color;
  const std::string rgb = std::to_string(c.r) + ";" + std::to_string(c.g) + ";" + std::to_string(c.b);
  if (gauge) return "\x1b[38;2;" + rgb + "m";  // bars: coloured glyphs
  const double luma = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
  return "\x1b[48;2;" + rgb + "m" + (luma < 150 ? "\x1b[97m" : "\x1b[30m");
}

std::string Join(const Row& row, bool ansi, bool gauge) {
  size_t n = row.size();  // up to the last glyph that shows something
  while (n > 0 && !row[n - 1].colored && row[n - 1].text == " ") --n;
  std::string s;
  bool open = false;
  Color current;
  for (size_t i = 0; i < n; ++i) {
    const Glyph& g = row[i];
    if (ansi && (g.colored != open || (g.colored && !(g.color == current)))) {
      s += g.colored ? Ansi(g, gauge) : "\x1b[0m";
      open = g.colored;
      current = g.color;
    }
    s += g.text;
  }
  if (open) s += "\x1b[0m";
  while (!ansi && !s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

std::string PaintText(const DisplayList& list, Tick t, int columns, bool ansi) {
  if (columns <= 0) columns = 100;
  const Tick T = std::max<Tick>(1, list.last_tick);
  int label_len = 1;
  int max_p = 1;
  for (const RunSummary& r : list.runs) {
    const int chunk = r.v > 1 ? 1 + static_cast<int>(std::to_string(r.v - 1).size()) : 0;  // "c1"
    label_len = std::max<int>(label_len, 1 + static_cast<int>(std::to_string(r.M - 1).size()) + chunk);
    max_p = std::max(max_p, r.P);
  }
  const int left = std::max(2 + static_cast<int>(std::to_string(max_p - 1).size()) + 1, 5);  // "d12 ", "held "
  int per_tick = label_len + 1;  // "F3 " when it fits, else one letter a tick
  if (left + T * per_tick > columns) per_tick = 1;
  // Still too wide: one column for several ticks (what is drawn last in it shows).
  const Tick per_column = per_tick == 1 && left + T > columns ? (T + (columns - left) - 1) / std::max(1, columns - left) : 1;
  auto col = [&](Tick x) { return left + static_cast<int>(x / per_column) * per_tick; };

  std::string out;
  if (!list.title.empty()) out += list.title + "\n";
  out += list.subtitle + "\n";
  const std::optional<Rational> full = Rational::Of(list.gauge_scale, list.gauge_den);
  bool chunked = false;
  for (const RunSummary& r : list.runs) chunked = chunked || r.v > 1;
  bool pairs = false;  // an overlapped pair: two ops on one device at once
  std::vector<std::vector<std::pair<Tick, Tick>>> spans;
  for (const Item& item : list.items) {
    if (item.role != Role::kOp || item.op_kind == 'A' || item.run < 0 || item.device < 0) continue;
    if (spans.size() <= static_cast<size_t>(item.run)) spans.resize(item.run + 1);
    auto& s = spans[item.run];
    if (s.size() <= static_cast<size_t>(item.device)) s.resize(item.device + 1, {-1, -1});
    pairs = pairs || (s[item.device].second > item.tick0 && s[item.device].first < item.tick1);
    s[item.device] = {item.tick0, item.tick1};
  }
  out += "F forward · B backward · W weight-grad · . bubble · ▁▃▅█ activations held" +
         std::string(list.gauge == GaugeMode::kDevice ? " per device (hN: device N's;" : " (") + "full = " +
         (full ? full->ToDisplay() : std::to_string(list.gauge_scale)) + " stage-sets)" +
         (chunked && per_tick == 1 ? " · f b w: a later chunk (c1, ...)" : "") +
         (pairs ? (per_tick == 1 ? " · + an overlapped F+B pair" : " · F4c0+B0c1 an overlapped pair") : "") + "\n";
  const size_t width = static_cast<size_t>(col(T + per_column - 1));
  for (size_t r = 0; r < list.runs.size(); ++r) {
    std::vector<Row> rows(list.runs[r].P, Row(width));
    // One gauge row, or one per device (GaugeMode::kDevice), under the chart.
    std::vector<Row> gauges(list.gauge == GaugeMode::kDevice ? list.runs[r].P : 1, Row(width));
    for (int d = 0; d < list.runs[r].P; ++d) Put(rows[d], std::string("d").append(std::to_string(d)), 0);
    if (gauges.size() == 1) Put(gauges[0], "held", 0);
    for (size_t d = 0; gauges.size() > 1 && d < gauges.size(); ++d) Put(gauges[d], "h" + std::to_string(d), 0);
    std::string status;
    std::vector<std::pair<std::pair<Tick, Tick>, std::string>> drawn(list.runs[r].P, {{-1, -1}, ""});  // last op per device
    for (const Item& item : list.items) {
      if (item.run != static_cast<int>(r) || !item.VisibleAt(t)) continue;
      if (item.role == Role::kStatus) status = item.text;
      if (item.role == Role::kGaugeBar) {
        const std::int64_t scale = std::max<std::int64_t>(1, list.gauge_scale);
        const int level = static_cast<int>((item.value * 8 + scale - 1) / scale);
        for (int c = col(item.tick0); c < std::max(col(item.tick1), col(item.tick0) + per_tick); ++c) {
          Row& gauge = gauges[item.device >= 0 && item.device < static_cast<int>(gauges.size()) ? item.device : 0];
          if (c < static_cast<int>(width)) gauge[c] = {kBars[std::clamp(level, 0, 8)], true, item.color};
        }
        continue;
      }
      if (item.role != Role::kOp && item.role != Role::kBubble) continue;
      // A growing op is drawn up to tick t.
      const Tick end = item.grow_ticks > 0 ? std::min(item.tick1, std::max(item.tick0, t)) : item.tick1;
      const int c0 = col(item.tick0);
      const int c1 = std::min<int>(static_cast<int>(width), end > item.tick0 ? std::max(col(end), c0 + 1) : c0);
      // The second op of an overlapped pair shares the first one's cells.
      const bool op = item.role == Role::kOp && item.op_kind != 'A';
      auto& [span, prev_label] = drawn[op ? item.device : 0];
      const bool pair = op && span.second > item.tick0 && span.first < item.tick1;
      // A bubble is "." per cycle; an op its kind letter (lower case for a
      // later chunk, "+" for an overlapped pair), then "-" through every
      // further cycle it lasts, so that a long op reads as one.
      char letter = item.op_kind;
      if (op && item.chunk > 0) letter = static_cast<char>(letter - 'A' + 'a');
      if (pair) letter = '+';
      for (int c = c0; c < c1; ++c) {
        const bool first = c < c0 + per_tick;
        const std::string fill = item.role == Role::kBubble ? ((c - left) % per_tick == 0 ? "." : " ")
                                 : first                    ? ((c - left) % per_tick == 0 ? std::string(1, letter) : " ")
                                                            : (c + 1 == c1 && per_tick > 1 ? " " : "-");
        rows[item.device][c] = {fill, true, item.color};
      }
      if (op) {
        std::string label = std::string(1, item.op_kind) + std::to_string(item.microbatch);
        if (item.chunk >= 0) label += "c" + std::to_string(item.chunk);
        // "F4c0+B0c1" where the pair's cells hold it, else "+B0c1".
        const std::string shown = !pair ? label
                                  : prev_label.size() + 1 + label.size() < static_cast<size_t>(c1 - c0)
                                      ? prev_label + "+" + label
                                      : "+" + label;
        if (per_tick > 1 && c1 > c0) Put(rows[item.device], shown, c0);
        span = {item.tick0, item.tick1};
        prev_label = label;
      }
    }
    out += "\n" + list.runs[r].caption + (status.empty() ? "" : "  [" + status + "]") + "\n";
    for (const Row& row : rows) out += Join(row, ansi, false) + "\n";
    for (const Row& gauge : gauges) out += Join(gauge, ansi, true) + "\n";
  }
  if (t >= list.last_tick) {
    out += "\n";
    for (const std::string& line : list.closing) out += line + "\n";
  }
  return out;
}

}  // namespace ppsim::render

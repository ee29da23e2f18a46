#include "ppsim/render/text_painter.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chart_layout.h"  // Sets
#include "ppsim/render/text_output.h"
#include "ppsim/text_wrap.h"

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

// ASCII `s` from column `col`, clipped to the row.
void Put(Row& row, const std::string& s, int col, std::optional<Color> color = std::nullopt) {
  for (size_t i = 0; i < s.size() && col + static_cast<int>(i) < static_cast<int>(row.size()); ++i) {
    Glyph& g = row[col + i];
    g.text = std::string(1, s[i]);
    if (color) g = {g.text, true, *color};
  }
}

std::string Ansi(const Glyph& g, bool gauge) {
  const Color c = g.color;
  const std::string rgb = std::to_string(c.r) + ";" + std::to_string(c.g) + ";" + std::to_string(c.b);
  if (gauge) return "\x1b[38;2;" + rgb + "m";  // bars and numbers: coloured glyphs
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

int Digits(std::int64_t v) { return static_cast<int>(std::to_string(v).size()); }

// How ticks map to columns, the same for every run of the list.
struct Grid {
  int left = 6;           // the label column: "d12 ", "held ", "cycle "
  int per_tick = 1;       // columns a tick takes: "F3 " where labels fit, else one letter
  Tick per_column = 1;    // ticks a column takes (per_tick == 1 only), when even one letter a tick is too wide
  bool numbers = false;   // the gauges print each cycle's value, aligned under it, instead of bars
  int col(Tick x) const { return left + static_cast<int>(x / per_column) * per_tick; }
};

Grid GridFor(const DisplayList& list, int columns) {
  const Tick T = std::max<Tick>(1, list.last_tick);
  int label_len = 1, max_p = 1, value_len = 1, idle_len = 0;
  for (const RunSummary& r : list.runs) {
    const int chunk = r.problem.v > 1 ? 1 + Digits(r.problem.v - 1) : 0;  // "c1"
    label_len = std::max(label_len, 1 + Digits(r.problem.M - 1) + chunk);
    max_p = std::max(max_p, r.problem.P);
  }
  for (const Item& item : list.items) {
    if (item.role == Role::kGaugeBar)
      value_len = std::max<int>(value_len, GaugeText(item.value, list.gauge_den, list.gauge_bytes).size());
    if (item.role == Role::kIdleCount) idle_len = std::max(idle_len, 6 + Digits(item.value));  // " idle 6"
  }
  Grid g;
  g.left = std::max(2 + Digits(max_p - 1) + 1, 6);
  const int room = columns - g.left - idle_len;
  // Labels and values where both fit, else labels alone, else a letter a tick.
  for (const int w : {std::max(label_len, value_len) + 1, label_len + 1, 1}) {
    g.per_tick = w;
    if (T * w <= room) break;
  }
  // Still too wide: one column for several ticks (what is drawn last in it shows).
  if (T > room) g.per_column = (T + std::max(1, room) - 1) / std::max(1, room);
  g.numbers = g.per_column == 1 && list.ticks_per_strip == 1 && g.per_tick > value_len;
  return g;
}

// "F forward · B backward · ...": what the letters, dots and gauge mean.
std::string Legend(const DisplayList& list, const Grid& g, int columns) {
  bool chunked = false, pairs = false;  // pairs: two ops on one device at once
  bool any_w = false, any_r = false;    // only the kinds drawn are listed
  for (const RunSummary& r : list.runs) chunked = chunked || r.problem.v > 1;
  std::vector<std::vector<std::pair<Tick, Tick>>> spans;
  for (const Item& item : list.items) {
    if (item.role != Role::kOp || item.op_kind == 'A' || item.run < 0 || item.device < 0) continue;
    any_w = any_w || item.op_kind == 'W';
    any_r = any_r || item.op_kind == 'R';
    if (spans.size() <= static_cast<size_t>(item.run)) spans.resize(item.run + 1);
    auto& s = spans[item.run];
    if (s.size() <= static_cast<size_t>(item.device)) s.resize(item.device + 1, {-1, -1});
    pairs = pairs || (s[item.device].second > item.tick0 && s[item.device].first < item.tick1);
    s[item.device] = {item.tick0, item.tick1};
  }
  const std::string full = GaugeText(list.gauge_scale, list.gauge_den, list.gauge_bytes);
  const std::string unit = list.gauge_bytes ? " bytes" : " stage-sets";
  const bool device = list.gauge == GaugeMode::kDevice;
  std::string s = std::string("F forward · B backward · ") + (any_w ? "W weight-grad · " : "") +
                  (any_r ? "R recompute (F again before B) · " : "") + ". bubble · ";
  const bool fullest = list.gauge == GaugeMode::kFullest;
  const char* who = device ? "h0, h1, ...: activations each device holds"
                    : fullest ? "held: activations on the fullest device (F start to B/W end)"
                              : "held: activations held by all devices";
  s += g.numbers ? std::string(who) + " in the cycle, in" + unit
                 : "▁▃▅█ activations held" +
                       std::string(device ? " per device (hN: device N's; " : fullest ? " on the fullest device (" : " (") +
                       "full = " + full + (list.gauge_bytes ? "" : " stage-sets") + "; each cycle's under the chart)";
  if (list.gauge_bytes)
    s += std::string(" · ") + (device ? "held with its send buffers; sN: device N's send buffers"
                                      : "held with the send buffers; send: the send buffers' share of it");
  if (chunked && g.per_tick == 1) s += " · f b w: a later chunk (c1, ...)";
  if (pairs) s += g.per_tick == 1 ? " · + an overlapped F+B pair" : " · F4c0+B0c1 an overlapped pair";
  const bool comms = std::any_of(list.items.begin(), list.items.end(), [](const Item& it) {
    return it.role == Role::kTransfer || it.role == Role::kTransferLink || it.role == Role::kCommWait;
  });
  if (comms)
    s += " · under each device, its transfers: : posted, s its send on the link, r its receive, x both · ~ a device "
         "waiting on communication";
  if (std::any_of(list.items.begin(), list.items.end(), [](const Item& it) { return it.role == Role::kCollective; }))
    s += " · u an UNSHARD, g a REDUCE_GRAD on the device's collective stream";
  if (g.per_column > 1) s += " · one column = " + std::to_string(g.per_column) + " cycles";
  if (list.ticks_per_strip > 1) s += " · values: the most in each " + std::to_string(list.ticks_per_strip) + " cycles";
  return WrapPhrases(s, columns);
}

// "cycle 0     2     4": tick numbers on a 1-2-5 step, never touching.
std::string Axis(const Grid& g, Tick T, bool ansi) {
  const int need = Digits(std::max<Tick>(0, T - 1)) + 2;
  auto fits = [&](Tick step) { return (step / g.per_column) * g.per_tick >= need; };
  Tick step = 1;
  for (Tick decade = 1; !fits(step); decade *= 10) {
    for (const Tick m : {1, 2, 5}) {
      step = m * decade;
      if (fits(step)) break;
    }
  }
  Row row(g.col(T) + need);
  Put(row, "cycle", 0);
  for (Tick k = 0; k < T; k += step) Put(row, std::to_string(k), g.col(k));
  return Join(row, ansi, false) + "\n";
}

// The device rows of run `r` at frame t: each op's letter or label, "-"
// through its further cycles, "." per idle cycle, and "idle N" once done.
std::vector<Row> DeviceRows(const DisplayList& list, const Grid& g, size_t r, Tick t, size_t width) {
  const int P = list.runs[r].problem.P;
  std::vector<Row> rows(P, Row(width));
  for (int d = 0; d < P; ++d) Put(rows[d], "d" + std::to_string(d), 0);
  std::vector<std::pair<std::pair<Tick, Tick>, std::string>> drawn(P, {{-1, -1}, ""});  // last op per device
  const int per = g.per_tick;
  for (const Item& item : list.items) {
    if (item.run != static_cast<int>(r) || !item.VisibleAt(t) || item.device < 0 || item.device >= P) continue;
    if (item.role == Role::kIdleCount) {
      Put(rows[item.device], " idle " + std::to_string(item.value), g.col(list.last_tick + g.per_column - 1));
      continue;
    }
    if (item.role == Role::kCommWait) {  // "~" where "." would be: the idle cycles spent waiting
      const Tick end = item.grow_ticks > 0 ? std::min(item.tick1, std::max(item.tick0, t)) : item.tick1;
      const int c0 = g.col(item.tick0), c1 = std::min<int>(static_cast<int>(width), std::max(g.col(end), c0 + 1));
      for (int c = c0; c < c1 && end > item.tick0; ++c)
        rows[item.device][c] = {(c - g.left) % per == 0 ? "~" : " ", true, item.color};
      continue;
    }
    if (item.role != Role::kOp && item.role != Role::kBubble) continue;
    // A growing op is drawn up to tick t.
    const Tick end = item.grow_ticks > 0 ? std::min(item.tick1, std::max(item.tick0, t)) : item.tick1;
    const int c0 = g.col(item.tick0);
    const int c1 = std::min<int>(static_cast<int>(width), end > item.tick0 ? std::max(g.col(end), c0 + 1) : c0);
    // An op of no duration (an empty stage's) is a "|" at its tick where
    // the device is otherwise idle.
    if (item.role == Role::kOp && item.tick1 == item.tick0) {
      if (c0 < static_cast<int>(width) && (rows[item.device][c0].text == "." || rows[item.device][c0].text == " "))
        rows[item.device][c0] = {"|", true, item.color};
      continue;
    }
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
      const bool first = c < c0 + per;
      const std::string fill = item.role == Role::kBubble ? ((c - g.left) % per == 0 ? "." : " ")
                               : first                    ? ((c - g.left) % per == 0 ? std::string(1, letter) : " ")
                                                          : (c + 1 == c1 && per > 1 ? " " : "-");
      rows[item.device][c] = {fill, true, item.color};
    }
    if (!op) continue;
    std::string label = std::string(1, item.op_kind) + std::to_string(item.microbatch);
    if (item.chunk >= 0) label += "c" + std::to_string(item.chunk);
    // "F4c0+B0c1" where the pair's cells hold it, else "+B0c1".
    const std::string shown = !pair ? label
                              : prev_label.size() + 1 + label.size() < static_cast<size_t>(c1 - c0)
                                  ? prev_label + "+" + label
                                  : "+" + label;
    if (per > 1 && c1 > c0) Put(rows[item.device], shown, c0);
    span = {item.tick0, item.tick1};
    prev_label = label;
  }
  return rows;
}

// The comm lane under each device row of run `r` at frame t (none when the
// run draws no transfers): ":" while a transfer is posted, then "s" while a
// send is on its link, "r" while a receive is, "x" where both are; "u" an
// UNSHARD and "g" a REDUCE_GRAD on the collective stream, over them.
std::vector<Row> LaneRows(const DisplayList& list, const Grid& g, size_t r, Tick t, size_t width) {
  const int P = list.runs[r].problem.P;
  std::vector<Row> lanes;
  for (const Item& item : list.items) {
    const bool link = item.role == Role::kTransferLink, collective = item.role == Role::kCollective;
    if (item.run != static_cast<int>(r) || (!link && !collective && item.role != Role::kTransfer) ||
        item.device < 0 || item.device >= P)
      continue;
    if (lanes.empty()) lanes.assign(P, Row(width));
    if (!item.VisibleAt(t)) continue;
    const Tick end = item.grow_ticks > 0 ? std::min(item.tick1, std::max(item.tick0, t)) : item.tick1;
    const int c0 = g.col(item.tick0), c1 = std::min<int>(static_cast<int>(width), std::max(g.col(end), c0 + 1));
    if (collective) {  // drawn after the transfers (chart_comm.cc), over them
      for (int c = c0; c < c1 && end > item.tick0; ++c)
        lanes[item.device][c] = {item.op_kind == 'U' ? "u" : "g", true, item.color};
      continue;
    }
    const std::string mine = link ? (item.op_kind == 'S' ? "s" : "r") : ":";
    for (int c = c0; c < c1 && end > item.tick0; ++c) {
      Glyph& cell = lanes[item.device][c];
      if (cell.text == "u" || cell.text == "g") continue;  // a collective stays over the transfers
      if (!link && cell.text != " ") continue;  // "posted" never hides a transfer on its link
      const bool both = link && cell.text != " " && cell.text != ":" && cell.text != mine;
      cell = {both ? "x" : mine, true, item.color};
    }
  }
  return lanes;
}

// Run r's gauge series at frame t, one per gauge row (the cluster, or each
// device's lane): the value of each strip of ticks_per_strip cycles up to
// min(t, makespan), 0 where nothing is held.
std::vector<std::vector<std::int64_t>> GaugeValues(const DisplayList& list, size_t r, Tick t, size_t lanes,
                                                   Role role = Role::kGaugeBar) {
  const Tick strip = list.ticks_per_strip;
  const Tick shown = std::min(t, list.runs[r].metrics.makespan);
  std::vector<std::vector<std::int64_t>> values(lanes, std::vector<std::int64_t>((shown + strip - 1) / strip, 0));
  for (const Item& item : list.items) {
    if (item.run != static_cast<int>(r) || item.role != role || !item.VisibleAt(t)) continue;
    const size_t lane = item.device >= 0 && static_cast<size_t>(item.device) < lanes ? item.device : 0;
    const size_t k = static_cast<size_t>(item.tick0 / strip);
    if (k < values[lane].size()) values[lane][k] = item.value;
  }
  return values;
}

// A gauge row: each value under its cycle, or a bar (▁..█) over the scale.
Row GaugeRow(const DisplayList& list, const Grid& g, const std::vector<std::int64_t>& values, const std::string& name,
             size_t width, Color colour = palette::kHeld) {
  Row row(width);
  Put(row, name, 0);
  const std::int64_t scale = std::max<std::int64_t>(1, list.gauge_scale);
  for (size_t k = 0; k < values.size(); ++k) {
    const Tick x0 = static_cast<Tick>(k) * list.ticks_per_strip;
    if (g.numbers) {
      Put(row, GaugeText(values[k], list.gauge_den, list.gauge_bytes), g.col(x0), colour);
      continue;
    }
    const int level = std::clamp(static_cast<int>((values[k] * 8 + scale - 1) / scale), 0, 8);
    const Tick x1 = x0 + list.ticks_per_strip;
    for (int c = g.col(x0); c < std::max(g.col(x1), g.col(x0) + g.per_tick) && c < static_cast<int>(width); ++c) {
      if (values[k] > 0 || row[c].text == " ") row[c] = {kBars[level], values[k] > 0, colour};
    }
  }
  return row;
}

// Where bars stand in for the values: the values themselves, ten cycles to a
// group, each line headed by its first cycle ("held  20: 6 6 6 ...").
std::string ValueLines(const DisplayList& list, const std::vector<std::int64_t>& values, const std::string& name,
                       int columns) {
  std::vector<std::string> cells;
  size_t widest = 1;
  for (std::int64_t v : values)
    widest = std::max(widest, (cells.emplace_back(GaugeText(v, list.gauge_den, list.gauge_bytes))).size());
  const Tick strip = list.ticks_per_strip;
  const int head = static_cast<int>(name.size()) + 2 + Digits(static_cast<Tick>(values.size()) * strip);
  const int group = static_cast<int>(10 * (widest + 1) + 1);  // ten values and the gap after them
  const size_t per_line = 10 * static_cast<size_t>(std::max(1, (columns - head) / group));
  std::string out;
  for (size_t k = 0; k < cells.size(); k += per_line) {
    std::string first = std::to_string(static_cast<Tick>(k) * strip);
    std::string line = name + std::string(head - name.size() - first.size() - 1, ' ') + first + ":";
    for (size_t i = k; i < std::min(cells.size(), k + per_line); ++i) {
      line += (i > k && i % 10 == 0 ? "  " : " ") + cells[i];  // a wider gap between tens
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string PaintText(const DisplayList& list, Tick t, int columns, bool ansi) {
  if (columns <= 0) columns = kDefaultTextColumns;
  const Grid g = GridFor(list, columns);
  const Tick T = std::max<Tick>(1, list.last_tick);
  std::string out;
  // Prose wraps between its phrases (" · ", two spaces, "; ") within the width.
  if (!list.title.empty()) out += WrapPhrases(list.title, columns, "");
  out += WrapPhrases(list.subtitle, columns, "");
  out += Legend(list, g, columns);
  size_t idle_len = 0;
  for (const Item& item : list.items) {
    if (item.role == Role::kIdleCount) idle_len = std::max(idle_len, 6 + std::to_string(item.value).size());
  }
  const size_t width = static_cast<size_t>(g.col(T + g.per_column - 1)) + idle_len;
  for (size_t r = 0; r < list.runs.size(); ++r) {
    std::string status;
    for (const Item& item : list.items) {
      if (item.run == static_cast<int>(r) && item.role == Role::kStatus && item.VisibleAt(t)) status = item.text;
    }
    out += "\n" + WrapPhrases(list.runs[r].caption + (status.empty() ? "" : "  [" + status + "]"), columns);
    out += Axis(g, T, ansi);
    const std::vector<Row> device_rows = DeviceRows(list, g, r, t, width), comm_lanes = LaneRows(list, g, r, t, width);
    for (size_t d = 0; d < device_rows.size(); ++d) {
      out += Join(device_rows[d], ansi, false) + "\n";
      if (d < comm_lanes.size()) out += Join(comm_lanes[d], ansi, false) + "\n";
    }
    // One gauge row, or one per device (GaugeMode::kDevice), under the chart.
    const size_t lanes = list.gauge == GaugeMode::kDevice ? list.runs[r].problem.P : 1;
    const std::vector<std::vector<std::int64_t>> values = GaugeValues(list, r, t, lanes);
    // When the gauge counts bytes, the send buffers' share of each row, under it.
    std::vector<std::vector<std::int64_t>> sends;
    if (list.gauge_bytes) sends = GaugeValues(list, r, t, lanes, Role::kSendBuffer);
    auto name = [&](size_t d, bool send) {
      return lanes == 1 ? std::string(send ? "send" : "held") : (send ? "s" : "h") + std::to_string(d);
    };
    for (size_t d = 0; d < lanes; ++d) {
      out += Join(GaugeRow(list, g, values[d], name(d, false), width), ansi, true) + "\n";
      if (!sends.empty())
        out += Join(GaugeRow(list, g, sends[d], name(d, true), width, palette::kSendBuffer), ansi, true) + "\n";
    }
    for (size_t d = 0; !g.numbers && d < lanes; ++d) {
      out += ValueLines(list, values[d], name(d, false), columns);
      if (!sends.empty()) out += ValueLines(list, sends[d], name(d, true), columns);
    }
  }
  if (t >= list.last_tick && !list.closing.empty()) {
    out += "\n";
    for (const std::string& line : list.closing) out += WrapPhrases(line, columns);
  }
  return out;
}

}  // namespace ppsim::render

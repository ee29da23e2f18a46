#include "ppsim/render/text_painter.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ppsim::render {
namespace {

// One cell of the character grid: a UTF-8 glyph.
using Row = std::vector<std::string>;

const char* kBars[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

std::string Join(const Row& row) {
  std::string s;
  for (const std::string& g : row) s += g;
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

std::string PaintText(const DisplayList& list, Tick t, int columns) {
  if (columns <= 0) columns = 100;
  const Tick T = std::max<Tick>(1, list.last_tick);
  int label_len = 1;
  int max_p = 1;
  for (const RunSummary& r : list.runs) {
    label_len = std::max<int>(label_len, 1 + static_cast<int>(std::to_string(r.M - 1).size()));
    max_p = std::max(max_p, r.P);
  }
  const int prefix = 2 + static_cast<int>(std::to_string(max_p - 1).size()) + 1;  // "d12 " / "held"
  const int left = std::max(prefix, 5);
  int per_tick = label_len + 1;  // "F3 " when it fits, else one letter a tick
  if (left + T * per_tick > columns) per_tick = 1;

  std::string out;
  if (!list.title.empty()) out += list.title + "\n";
  out += list.subtitle + "\n";
  out += "F forward · B backward · W weight-grad · . bubble · ▁▃▅█ activations held (full = " +
         std::to_string(list.gauge_scale) + ")\n";
  for (size_t r = 0; r < list.runs.size(); ++r) {
    const int P = list.runs[r].P;
    std::vector<Row> rows(P, Row(left + T * per_tick, " "));
    Row gauge(left + T * per_tick, " ");
    auto put = [&](Row& row, const std::string& s, int col) {
      for (size_t i = 0; i < s.size() && col + static_cast<int>(i) < static_cast<int>(row.size()); ++i) {
        row[col + i] = std::string(1, s[i]);
      }
    };
    for (int d = 0; d < P; ++d) put(rows[d], "d" + std::to_string(d), 0);
    put(gauge, "held", 0);
    std::string status;
    for (const Item& item : list.items) {
      if (item.run != static_cast<int>(r) || !item.VisibleAt(t)) continue;
      if (item.role == Role::kStatus) status = item.text;
      if (item.role != Role::kOp && item.role != Role::kBubble && item.role != Role::kGaugeBar) continue;
      const Tick end = item.grow_ticks > 0 ? std::min(item.tick1, std::max(item.tick0, t)) : item.tick1;
      if (item.role == Role::kGaugeBar) {
        const int level = static_cast<int>((item.value * 8 + list.gauge_scale - 1) / std::max<std::int64_t>(1, list.gauge_scale));
        for (int c = 0; c < per_tick; ++c) gauge[left + item.tick0 * per_tick + c] = kBars[std::clamp(level, 0, 8)];
        continue;
      }
      Row& row = rows[item.device];
      const int c0 = left + static_cast<int>(item.tick0 * per_tick);
      const int c1 = left + static_cast<int>(end * per_tick);
      const std::string fill = item.role == Role::kBubble ? "." : std::string(1, item.op_kind);
      for (int c = c0; c < c1; ++c) row[c] = (c - left) % per_tick == 0 ? fill : " ";
      if (item.role == Role::kOp && per_tick > 1 && c1 > c0) {
        put(row, std::string(1, item.op_kind) + std::to_string(item.microbatch), c0);
      }
    }
    out += "\n" + list.runs[r].caption + (status.empty() ? "" : "  [" + status + "]") + "\n";
    for (const Row& row : rows) out += Join(row) + "\n";
    out += Join(gauge) + "\n";
  }
  if (t >= list.last_tick) {
    out += "\n";
    for (const std::string& line : list.closing) out += line + "\n";
  }
  return out;
}

}  // namespace ppsim::render

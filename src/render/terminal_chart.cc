#include "ppsim/render/terminal_chart.h"

#include <algorithm>
#include <vector>

namespace ppsim {
namespace {

// "F3"; with two chunks the second is lower case ("f3"), with more "F3.2".
std::string Label(const PlacedOp& op, const Problem& p) {
  const int chunk = p.placement == Placement::kLoop ? op.stage / p.P : (op.stage < p.P ? 0 : 1);
  char kind = KindChar(op.kind);
  if (p.v == 2 && chunk == 1) kind = static_cast<char>(kind - 'A' + 'a');
  std::string s(1, kind);
  s += std::to_string(op.microbatch);
  if (p.v > 2) s += "." + std::to_string(chunk);
  return s;
}

std::string Pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::string TerminalChart(const Timeline& t, const Metrics& m) {
  const Problem& p = t.problem;
  const std::vector<PlacedOp> ops = t.Ops();
  size_t width = 2;
  for (const PlacedOp& op : ops) width = std::max(width, Label(op, p).size() + (op.overlap >= 0));
  width = std::max(width, std::to_string(m.peak_activations).size());
  ++width;  // a space between cells
  const Tick T = t.makespan;
  // cells[d][tick]: text, and the op kind there (-1 idle).
  std::vector<std::vector<std::string>> cells(p.P, std::vector<std::string>(T, "."));
  std::vector<std::vector<int>> kinds(p.P, std::vector<int>(T, -1));
  for (const PlacedOp& op : ops) {
    for (Tick x = op.start; x < op.end; ++x) {
      std::string& cell = cells[op.device][x];
      const bool first = x == op.start;
      const std::string text = first ? Label(op, p) : "--";
      // An overlapped pair shares its cells: "F3+B1".
      if (op.overlap >= 0 && kinds[op.device][x] >= 0) {
        if (first) cell += "+" + text;
      } else {
        cell = text;
      }
      kinds[op.device][x] = static_cast<int>(op.kind);
    }
  }
  for (int d = 0; d < p.P; ++d)
    for (Tick x = 0; x < T; ++x) width = std::max(width, cells[d][x].size() + 1);

  const size_t head = std::max<size_t>(6, 4 + std::to_string(p.P - 1).size() + 1);
  std::string out;
  // Tick axis: a number every few columns, so the axis stays readable.
  const Tick every = std::max<Tick>(1, (6 + static_cast<Tick>(width) - 1) / static_cast<Tick>(width));
  out += Pad("tick", head);
  for (Tick x = 0; x < T; ++x) out += Pad(x % every == 0 ? std::to_string(x) : "", width);
  out += "\n";
  for (int d = 0; d < p.P; ++d) {
    out += Pad("dev " + std::to_string(d), head);
    for (Tick x = 0; x < T; ++x) out += Pad(cells[d][x], width);
    out += "\n";
  }
  out += Pad("held", head);
  for (Tick x = 0; x < T; ++x) out += Pad(std::to_string(m.activations.cluster.At(x)), width);
  out += "\n";
  return out;
}

}  // namespace ppsim

#include "repr.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "errors.h"
#include "ppsim/metric_table.h"
#include "ppsim/render/render.h"
#include "ppsim/render/svg_writer.h"

namespace ppsim::py {
namespace {

// Laid out on a 1200-wide frame for a notebook's output cell, which is about
// 760 px wide (text is at least 9 px there), and drawn at the cell's width:
// width 100 % with the frame's viewBox, so it scales to its container.
constexpr int kWidth = 1200;
constexpr int kCellWidth = 760;
int HeightFor(size_t runs) { return 160 + 260 * static_cast<int>(runs); }

// The root element's fixed width="W" height="H" become width="100%": the
// viewBox keeps the aspect.
std::string ScaleToContainer(std::string svg) {
  const size_t open = svg.find("<svg ");
  if (open == std::string::npos) return svg;
  const size_t w = svg.find(" width=\"", open), h = svg.find(" height=\"", open), close = svg.find('>', open);
  if (w == std::string::npos || h == std::string::npos || h > close || w > h) return svg;
  const size_t h_end = svg.find('"', h + 9);
  if (h_end == std::string::npos || h_end > close) return svg;
  return svg.substr(0, w) + " width=\"100%\"" + svg.substr(h_end + 1);
}

}  // namespace

std::string RunsSvg(const std::vector<render::RunInput>& runs, int width, int height) {
  render::LayoutInput input;
  input.runs = runs;
  input.width = width;
  input.height = height;
  render::RenderOptions options;
  options.format = render::OutputFormat::kSvg;
  return Unwrap(render::RenderToBytes(input, options));
}

std::optional<std::string> RunsSvgOrNone(const std::vector<render::RunInput>& runs) {
  render::LayoutInput input;
  input.runs = runs;
  input.width = kWidth;
  input.height = HeightFor(runs.size());
  input.display_width = kCellWidth;
  render::RenderOptions options;
  options.format = render::OutputFormat::kSvg;
  Result<std::string> svg = render::RenderToBytes(input, options);
  if (!svg) return std::nullopt;
  return ScaleToContainer(std::move(*svg));
}

// A table whose every cell, the run names included, is right-aligned, so that
// a name heads its column of numbers whatever the notebook's stylesheet does
// to <th>; memory in one unit, stage-sets (peak_sets, the same peak as a count
// of chunk sets, is left to --json and the attribute).
std::string RunsHtmlTable(const std::vector<render::RunInput>& runs) {
  const std::string cell = " style=\"text-align:right;padding:0.1em 0.6em;white-space:nowrap\"";
  std::string h = "<table style=\"border-collapse:collapse;font-variant-numeric:tabular-nums\">"
                  "<caption style=\"text-align:left\">memory in stage-sets: one stage's activations for one "
                  "microbatch</caption><tr><th></th>";
  for (const render::RunInput& r : runs) h += "<th" + cell + ">" + render::XmlEscape(r.run->name) + "</th>";
  h += "</tr>";
  auto row = [&](const std::string& name, auto value) {
    h += "<tr><th style=\"text-align:left;padding:0.1em 0.6em 0.1em 0;white-space:nowrap\">" + name + "</th>";
    for (const render::RunInput& r : runs) h += "<td" + cell + ">" + value(r.run->timeline, r.run->metrics) + "</td>";
    h += "</tr>";
  };
  row("P, M, v", [](const Timeline& t, const Metrics&) {
    return std::to_string(t.problem.P) + ", " + std::to_string(t.problem.M) + ", " + std::to_string(t.problem.v);
  });
  // The metrics the table shows in a notebook (metric_table.h's shown_in),
  // printed the one way, and a per-device metric's devices in a row of their
  // own.
  auto text = [](const std::optional<Rational>& v) { return v ? v->ToText() : std::string("-"); };
  for (const MetricInfo* metric : MetricsShownIn(kNotebook)) {
    if (std::none_of(runs.begin(), runs.end(),
                     [&](const render::RunInput& r) { return MetricApplies(*metric, r.run->metrics); }))
      continue;
    row(metric->name, [&](const Timeline& t, const Metrics& m) { return text(metric->value(m, t.problem, -1)); });
    if (!metric->per_device) continue;
    row(std::string(metric->name) + " per device", [&](const Timeline& t, const Metrics& m) {
      std::string s;
      for (int d = 0; d < t.problem.P; ++d) s += (d > 0 ? " " : "") + text(metric->value(m, t.problem, d));
      return s;
    });
  }
  return h + "</table>";
}

std::string RunsHtml(const std::vector<render::RunInput>& runs) {
  std::optional<std::string> svg = RunsSvgOrNone(runs);
  return "<div>" + (svg ? "<div style=\"width:100%\">" + *svg + "</div>" : "") + RunsHtmlTable(runs) +
         "</div>";
}

}  // namespace ppsim::py

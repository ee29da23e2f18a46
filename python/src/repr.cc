#include "repr.h"

#include <cstdio>

#include "errors.h"
#include "ppsim/metric_table.h"
#include "ppsim/render/render.h"

namespace ppsim::py {
namespace {

// A notebook cell is about this wide; the SVG scales with the page.
constexpr int kWidth = 1200;
int HeightFor(size_t runs) { return 160 + 260 * static_cast<int>(runs); }

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
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
  render::RenderOptions options;
  options.format = render::OutputFormat::kSvg;
  Result<std::string> svg = render::RenderToBytes(input, options);
  if (!svg) return std::nullopt;
  return *svg;
}

std::string RunsHtmlTable(const std::vector<render::RunInput>& runs) {
  std::string h = "<table><tr><th></th>";
  for (const render::RunInput& r : runs) h += "<th>" + Escape(r.name) + "</th>";
  h += "</tr>";
  auto row = [&](const char* name, auto cell) {
    h += std::string("<tr><th style=\"text-align:left\">") + name + "</th>";
    for (const render::RunInput& r : runs) h += "<td>" + cell(*r.timeline, *r.metrics) + "</td>";
    h += "</tr>";
  };
  row("P, M, v", [](const Timeline& t, const Metrics&) {
    return std::to_string(t.problem.P) + ", " + std::to_string(t.problem.M) + ", " + std::to_string(t.problem.v);
  });
  row("makespan", [](const Timeline&, const Metrics& m) { return std::to_string(m.makespan); });
  row("busy", [](const Timeline&, const Metrics& m) { return std::to_string(m.busy); });
  row("idle (bubble)", [](const Timeline&, const Metrics& m) { return std::to_string(m.idle); });
  row("bubble_ratio", [](const Timeline& t, const Metrics& m) {
    return FindMetric("bubble_ratio")->value(m, t.problem, -1)->ToText();  // printed the one way (metric_table.h)
  });
  row("peak activations", [](const Timeline&, const Metrics& m) { return std::to_string(m.peak_activations); });
  row("peak per device", [](const Timeline&, const Metrics& m) {
    std::string s;
    for (auto v : m.peak_activations_per_device) s += (s.empty() ? "" : " ") + std::to_string(v);
    return s;
  });
  return h + "</table>";
}

std::string RunsHtml(const std::vector<render::RunInput>& runs) {
  std::optional<std::string> svg = RunsSvgOrNone(runs);
  return "<div>" + (svg ? "<div style=\"max-width:100%\">" + *svg + "</div>" : "") + RunsHtmlTable(runs) +
         "</div>";
}

}  // namespace ppsim::py

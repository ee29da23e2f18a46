// How runs show themselves in Jupyter: the chart `ppsim render` draws (one
// layout, SVG painter) and a short HTML table of the measured figures.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsim/render/layout.h"

namespace ppsim::py {

// The final frame of `runs` as SVG, `width` x `height` pixels; raises
// ppsim.Error (e.g. kLegibility when the frame is too small for the chart).
std::string RunsSvg(const std::vector<render::RunInput>& runs, int width, int height);

// The SVG, or nullopt when it cannot be drawn legibly (Jupyter then shows
// the table alone).
std::optional<std::string> RunsSvgOrNone(const std::vector<render::RunInput>& runs);

// One column per run: makespan, busy, idle, bubble ratio, peak activations.
std::string RunsHtmlTable(const std::vector<render::RunInput>& runs);

// The SVG (when drawable) above the table.
std::string RunsHtml(const std::vector<render::RunInput>& runs);

}  // namespace ppsim::py

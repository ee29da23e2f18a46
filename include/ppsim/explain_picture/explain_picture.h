// The picture of `ppsim explain -o report.svg|.png|.html`: the measured run
// drawn above the ideal run on one time axis (the same device rows, the
// same scale, ns ticks read in µs), each op of the measured run that started
// late against its ideal placement marked by how late it is, and the
// findings as the closing lines. Every number drawn is the explain report's
// (jobs/explain.h). Its own library (ppsim_explain_picture -> jobs, render),
// so that jobs never reaches up into the drawing libraries: ppsim-render and
// Python link it; `ppsim` hands such a command to ppsim-render.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/jobs/explain.h"
#include "ppsim/render/layout.h"
#include "ppsim/render/output_format.h"
#include "ppsim/run.h"

namespace ppsim::explain_picture {

// What the layout draws, and the runs it points to.
struct Picture {
  std::vector<Run> runs;  // "Measured", "Ideal": the report's two timelines, measured
  render::LayoutInput input;
};

// kUsage for a trace of parts (no PP: ranges), which has no runs to draw.
Result<Picture> PictureOf(const jobs::ExplainReport& report);

// Draws the picture into every path (each .svg, .png or .html by its
// extension), all or none.
Error WritePictures(const jobs::ExplainReport& report, const std::vector<std::string>& paths);

// The bytes of the picture in `format` (svg, png, html), for Python.
Result<std::string> PictureBytes(const jobs::ExplainReport& report, render::OutputFormat format);

}  // namespace ppsim::explain_picture

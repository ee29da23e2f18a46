// `ppsim simulate`'s library half: one schedule simulated, measured and
// written in one of its output formats. The formats are a table
// (SimulateFormats), as render's picture formats are: the CLI's --format
// and its help read it, and a new format is a row and its writer. The CLI
// parses its flags into a SimulateRequest and makes one call, WriteSimulation.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/render/text_output.h"

namespace ppsim::jobs {

struct SimulateRequest {
  std::string schedule = "1f1b";  // a registry name (`ppsim list`), or:
  std::string schedule_file;      // the order read from this file (docs/formats.md) instead
  bool shape_given = false;       // P, M or chunks given: they must agree with the file's
  io::ProblemOptions problem;
  std::string format = "summary";  // a SimulateFormats() name
  std::string export_format;       // an io::ExportFormats() name: the schedule instead of the metrics
  std::int64_t tick_us = 1000;     // trace: microseconds per tick
  render::TextOptions text;        // text: the chart's columns and colours
  bool critical_path = false;      // summary, text and json: one chain of ops fixing the makespan
  // A placement the run must have (ppsim/placement_spec.h: loop, vshape,
  // wave, map:...); "" = the schedule's own. Refused where it differs.
  std::string placement;
};

struct SimulateFormat {
  const char* name;  // --format value
  const char* help;  // what it prints, for the CLI's help
};
// summary (the default), text, json, trace.
const std::vector<SimulateFormat>& SimulateFormats();
// "summary: the metrics, one line each; the default; text: ...": for help strings.
std::string SimulateFormatList();

// Simulates `request` and writes its output to `path` ("-" = stdout),
// atomically (json and trace streamed into the temporary). `before_writing`,
// if given, runs once the run succeeded and before anything is written (the
// CLI makes the README tour's out/ folder there). Errors: the problem's, the
// schedule's or the file's, kUsage for an unknown format, and the writer's.
Error WriteSimulation(const SimulateRequest& request, const std::string& path,
                      const std::function<void()>& before_writing = {});

}  // namespace ppsim::jobs

#include "ppsim/jobs/simulate_output.h"

#include "ppsim/generators.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/chrome_trace.h"
#include "ppsim/io/model_file.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/io/simulation_json.h"
#include "ppsim/io/simulation_text.h"
#include "ppsim/io/streamed_output.h"
#include "ppsim/run.h"
#include "ppsim/simulate.h"

namespace ppsim::jobs {
namespace {

// The summary, after the chart `render --format text` draws for "text".
Result<std::string> SummaryText(const SimulateRequest& request, const Run& r, bool chart) {
  std::string out;
  if (chart) {
    Result<std::string> drawn = render::RenderRunText(r, request.text);
    if (!drawn) return drawn.error();
    out = *drawn + "\n";
  }
  // The summary fits the chart's width (80 columns unless told).
  const int columns = request.text.columns > 0 ? request.text.columns : render::kDefaultTextColumns;
  out += io::SimulationSummary(r.timeline, r.metrics, columns);
  if (request.critical_path) out += io::CriticalPathText(r.timeline);
  return out;
}

Error WriteText(const std::string& path, const Result<std::string>& text) {
  return text ? io::WriteFileAtomically(path, *text) : text.error();
}

struct FormatRow {
  SimulateFormat format;
  bool series;  // needs the activation step series
  Error (*write)(const SimulateRequest& request, const Run& r, const std::string& path);
};

const std::vector<FormatRow>& Rows() {
  static const std::vector<FormatRow> rows = {
      {{"summary", "the metrics, one line each; the default"},
       false,
       [](const SimulateRequest& request, const Run& r, const std::string& path) {
         return WriteText(path, SummaryText(request, r, false));
       }},
      {{"text", "a terminal chart, then the summary"},
       true,
       [](const SimulateRequest& request, const Run& r, const std::string& path) {
         return WriteText(path, SummaryText(request, r, true));
       }},
      {{"json", "one JSON object: parameters, metrics, activation series, ops"},
       true,
       [](const SimulateRequest& request, const Run& r, const std::string& path) {
         return io::WriteStreamed(path, [&](io::JsonOut& w) {
           return io::WriteSimulationJson(w, r.timeline, r.metrics, request.critical_path);
         });
       }},
      {{"trace", "a Chrome trace for chrome://tracing or Perfetto"},
       false,
       [](const SimulateRequest& request, const Run& r, const std::string& path) {
         const io::ChromeTraceOptions trace{.tick_us = request.tick_us};
         return io::WriteStreamed(path, [&](io::JsonOut& w) { return io::WriteChromeTrace(w, r.timeline, trace); });
       }},
  };
  return rows;
}

}  // namespace

const std::vector<SimulateFormat>& SimulateFormats() {
  static const std::vector<SimulateFormat> formats = [] {
    std::vector<SimulateFormat> out;
    for (const FormatRow& row : Rows()) out.push_back(row.format);
    return out;
  }();
  return formats;
}

std::string SimulateFormatList() {
  std::string list;
  for (const SimulateFormat& f : SimulateFormats())
    list += (list.empty() ? "" : "; ") + std::string(f.name) + ": " + f.help;
  return list;
}

Error WriteSimulation(const SimulateRequest& request, const std::string& path,
                      const std::function<void()>& before_writing) {
  const FormatRow* row = nullptr;
  for (const FormatRow& r : Rows())
    if (request.format == r.format.name) row = &r;
  if (row == nullptr) {
    std::string names;
    for (const SimulateFormat& f : SimulateFormats()) names += (names.empty() ? "" : ", ") + std::string(f.name);
    return Error::Field(ErrorCode::kUsage, "format", ": '" + request.format + "' is not one of " + names);
  }
  if (request.schedule_file.empty() && !request.problem.layout.empty())
    if (Error e = io::LayoutRunsSchedule(request.schedule); !e.ok()) return e;
  if (Error e = io::CheckLinkHasComms(request.problem); !e.ok()) return e;
  Result<Problem> problem = io::ToProblem(request.problem);
  if (!problem) return problem.error();
  Result<Timeline> timeline = request.schedule_file.empty()
                                  ? Simulate(request.schedule, *problem)
                                  : io::SimulateScheduleFile(request.schedule_file, *problem, request.shape_given);
  if (!timeline) return timeline.error();
  if (!request.placement.empty())
    if (Error e = io::PlacementAgrees(request.placement,
                                      request.schedule_file.empty() ? request.schedule : request.schedule_file,
                                      timeline->problem);
        !e.ok())
      return e;
  if (before_writing) before_writing();
  if (!request.export_format.empty()) return WriteText(path, io::ExportSchedule(request.export_format, *timeline));
  // The step series only where they are printed (charts and json).
  const std::string name = timeline->schedule.name;
  const Run run = Measured(name, std::move(*timeline), MeasureOptions{.series = row->series});
  return row->write(request, run, path);
}

}  // namespace ppsim::jobs

// ppsim simulate --schedule NAME -P p -M m [...] [--json | --format text [--width COLUMNS] | --format trace]
// ppsim simulate --schedule-file FILE.csv|FILE.txt [...] [--export pytorch-csv|text]
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/chrome_trace.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/io/simulation_json.h"
#include "ppsim/io/simulation_text.h"
#include "ppsim/io/streamed_output.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"
#include "problem_options.h"
#include "terminal.h"

namespace ppsim::cli {
namespace {

struct SimulateOptions {
  std::string schedule = "1f1b";
  io::ProblemOptions problem;
  bool json = false;
  std::string format = "summary";
  std::string output = "-";
  std::string schedule_file;  // instead of --schedule
  std::string export_format;  // write the schedule, not the metrics
  std::int64_t tick_us = 1000;
  int width = 0;  // --format text: columns (0 = the terminal's, else 100)
  bool shape_flags_given = false;  // -P/-M/--chunks on the command line
  bool critical_path = false;      // list the chain of ops that fixes the makespan
};

// Reports a failed write, or says what was written (to a file, not stdout).
int Finish(const Error& written, const std::string& path) {
  if (written.code != ErrorCode::kOk) return Report(written);
  if (path != "-") std::fprintf(stderr, "ppsim: wrote %s\n", io::DisplayPath(path).c_str());
  return 0;
}

// What the formats written in one piece print: the schedule (--export), or
// the summary, after the chart `render --format text` draws with --format text.
Result<std::string> Present(const SimulateOptions& o, const Timeline& timeline, const Metrics& metrics) {
  if (!o.export_format.empty()) return io::ExportSchedule(o.export_format, timeline);
  std::string out;
  if (o.format == "text") {
    Result<std::string> chart =
        render::RenderRunText(timeline.schedule.name, timeline, metrics, TextOptionsFor(o.output, o.width));
    if (!chart) return chart.error();
    out = *chart + "\n";
  }
  out += io::SimulationSummary(timeline, metrics);
  if (o.critical_path) out += io::CriticalPathText(timeline);
  return out;
}

int Run(const SimulateOptions& o) {
  Result<Problem> problem = io::ToProblem(o.problem);
  if (!problem) return Report(problem.error());
  Result<Timeline> timeline = o.schedule_file.empty()
                                  ? Simulate(o.schedule, *problem)
                                  : io::SimulateScheduleFile(o.schedule_file, *problem, o.shape_flags_given);
  if (!timeline) return Report(timeline.error());
  MakeTourFolder(o.output);
  // The step series only where they are printed (charts and --json).
  const bool json = o.json || o.format == "json";
  const Metrics metrics = Measure(*timeline, MeasureOptions{.series = json || o.format == "text"});
  if (o.format == "trace") {
    const io::ChromeTraceOptions trace{.tick_us = o.tick_us};
    return Finish(io::WriteStreamed(o.output, [&](io::JsonOut& w) { return io::WriteChromeTrace(w, *timeline, trace); }),
                  o.output);
  }
  if (json) {
    return Finish(io::WriteStreamed(
        o.output, [&](io::JsonOut& w) { return io::WriteSimulationJson(w, *timeline, metrics, o.critical_path); }),
        o.output);
  }
  Result<std::string> out = Present(o, *timeline, metrics);
  if (!out) return Report(out.error());
  return Finish(io::WriteFileAtomically(o.output, *out), o.output);
}

const CommandRegistrar simulate_registrar(10, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "place one schedule in time and measure it");
  CLI::Option* named =
      cmd->add_option("--schedule,-s", o->schedule, "schedule name (see `ppsim list`; default 1f1b)");
  cmd->add_option("--schedule-file", o->schedule_file,
                  "read the order from FILE: PyTorch CSV (.csv) or ppsim text (docs/formats.md)")
      ->excludes(named);
  AddProblemOptions(*cmd, o->problem);
  CLI::Option* json = cmd->add_flag("--json", o->json, "print one JSON object: parameters, metrics, activation series, ops");
  CLI::Option* format =
      cmd->add_option("--format", o->format, "summary (default), text (terminal chart), json, trace (Chrome trace)")
          ->check(CLI::IsMember({"summary", "text", "json", "trace"}));
  cmd->add_option("--export", o->export_format, "write the schedule instead: pytorch-csv, text")
      ->check(CLI::IsMember({"pytorch-csv", "text"}))
      ->excludes(format)
      ->excludes(json);
  cmd->add_option("--width", o->width, "--format text: columns (default: the terminal's width, else 100)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--tick-us", o->tick_us, "microseconds per tick in --format trace (default 1000)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}));
  cmd->add_flag("--critical-path", o->critical_path,
                "list one chain of ops from tick 0 to the makespan, each starting when its predecessor ends "
                "(in --json: \"critical_path\", indices into \"ops\")");
  cmd->add_option("-o,--output", o->output, "write to this file (atomically) instead of stdout");
  cmd->callback([o, exit_code, cmd] {
    o->shape_flags_given = cmd->count("-P") + cmd->count("-M") + cmd->count("--chunks") > 0;
    *exit_code = Run(*o);
  });
});

}  // namespace
}  // namespace ppsim::cli

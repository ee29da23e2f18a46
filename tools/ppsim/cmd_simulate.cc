// ppsim simulate --schedule NAME -P p -M m [...] [--json | --format text|trace]
// ppsim simulate --schedule-file FILE.csv|FILE.txt [...] [--export pytorch-csv|text]
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/chrome_trace.h"
#include "ppsim/cost_scale.h"
#include "ppsim/critical_path.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/metrics.h"
#include "ppsim/render/terminal_chart.h"
#include "ppsim/simulate.h"
#include "ppsim/io/simulation_json.h"
#include "ppsim/io/streamed_output.h"
#include "problem_options.h"
#include "ppsim/io/schedule_file.h"

namespace ppsim::cli {
namespace {

struct SimulateOptions {
  std::string schedule = "1f1b";
  ProblemOptions problem;
  bool json = false;
  std::string format = "summary";
  std::string output = "-";
  std::string schedule_file;  // instead of --schedule
  std::string export_format;  // write the schedule, not the metrics
  std::int64_t tick_us = 1000;
  bool shape_flags_given = false;  // -P/-M/--chunks on the command line
  bool critical_path = false;      // list the chain of ops that fixes the makespan
};

// "critical path (18 ops, tick 0 to 18): F0@s0(d0 0-1) -> ... -(+1)-> ...": -(+c)-> marks a gap of c ticks (comm).
std::string CriticalPathText(const Timeline& t) {
  const std::vector<CriticalStep> path = CriticalPath(t);
  std::string s = "critical path (" + std::to_string(path.size()) + " ops, tick 0 to " + std::to_string(t.makespan) + "):";
  for (size_t k = 0; k < path.size(); ++k) {
    const Op op = t.schedule.space.At(path[k].op);
    const Tick start = t.start[path[k].op];
    const Tick gap = k == 0 ? 0 : start - t.end[path[k - 1].op];
    s += k == 0 ? " " : gap > 0 ? " -(+" + std::to_string(gap) + ")-> " : " -> ";
    s += OpName(op) + "(d" + std::to_string(t.problem.DeviceOf(op.stage)) + " " + std::to_string(start) + "-" +
         std::to_string(t.end[path[k].op]) + ")";
  }
  return s + "\n";
}

std::string Summary(const Timeline& t, const Metrics& m) {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof line, "%s  P=%d M=%d v=%d  comm=%lld\n", t.schedule.name.c_str(), t.problem.P,
                t.problem.M, t.problem.v, static_cast<long long>(t.problem.comm));
  s += line;
  s += CostBasisText(t.problem) + "; " + TickScaleText(t.problem) + "\n";  // which units the ticks are in
  std::snprintf(line, sizeof line,
                "makespan %lld  busy %lld  idle %lld  bubble_ratio %.4f  bubble_fraction %.4f  transfers %lld\n",
                static_cast<long long>(m.makespan), static_cast<long long>(m.busy), static_cast<long long>(m.idle),
                m.bubble_ratio, m.bubble_fraction, static_cast<long long>(m.transfers));
  s += line;
  s += "peak activations (" + HoldModeName(t.problem.hold) + "): " + std::to_string(m.peak_activations) +
       " cluster-wide; per device";
  for (auto v : m.peak_activations_per_device) s += " " + std::to_string(v);
  s += "\n";
  if (t.problem.memory.enabled()) {
    const MemoryBytes bytes = MeasureMemoryBytes(t);
    s += "peak bytes per device";
    for (auto v : bytes.peak_per_device) s += " " + std::to_string(v);
    s += "\n";
    if (bytes.exceeded)
      s += "memory limit " + std::to_string(t.problem.memory.limit) + " exceeded first at tick " +
           std::to_string(bytes.first_tick) + " on device " + std::to_string(bytes.first_device) + " (" +
           std::to_string(bytes.bytes_at_first) + " bytes)\n";
  }
  return s;
}

// Reports a failed write, or says what was written (to a file, not stdout).
int Finish(const Error& written, const std::string& path) {
  if (written.code != ErrorCode::kOk) return Report(written);
  if (path != "-") std::fprintf(stderr, "ppsim: wrote %s\n", DisplayPath(path).c_str());
  return 0;
}

int Run(const SimulateOptions& o) {
  Result<Problem> problem = ToProblem(o.problem);
  if (!problem) return Report(problem.error());
  Result<Timeline> timeline = o.schedule_file.empty()
                                  ? Simulate(o.schedule, *problem)
                                  : SimulateScheduleFile(o.schedule_file, *problem, o.shape_flags_given);
  if (!timeline) return Report(timeline.error());
  MakeTourFolder(o.output);
  // The step series only where they are printed (charts and --json).
  const bool series = o.json || o.format == "json" || o.format == "text";
  const Metrics metrics = Measure(*timeline, MeasureOptions{.series = series});
  std::string out;
  if (!o.export_format.empty()) {
    Result<std::string> exported = ExportSchedule(o.export_format, *timeline);
    if (!exported) return Report(exported.error());
    out = std::move(*exported);
  } else if (o.format == "trace") {
    ChromeTraceOptions trace;
    trace.tick_us = o.tick_us;
    return Finish(WriteStreamed(o.output, [&](JsonOut& w) { return WriteChromeTrace(w, *timeline, trace); }),
                  o.output);
  } else if (o.json || o.format == "json") {
    return Finish(WriteStreamed(
        o.output, [&](JsonOut& w) { return WriteSimulationJson(w, *timeline, metrics, o.critical_path); }),
        o.output);
  } else if (o.format == "text") {
    out = TerminalChart(*timeline, metrics) + Summary(*timeline, metrics);
    if (o.critical_path) out += CriticalPathText(*timeline);
  } else {
    out = Summary(*timeline, metrics);
    if (o.critical_path) out += CriticalPathText(*timeline);
  }
  return Finish(WriteFileAtomically(o.output, out), o.output);
}

const CommandRegistrar registrar(10, [](CLI::App& app, int* exit_code) {
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

// ppsim simulate --schedule NAME -P p -M m [...] [--json | --format text [--width COLUMNS] | --format trace]
// ppsim simulate --schedule-file FILE.csv|FILE.txt [...] [--export pytorch-csv|text|pytorch-comms-csv]
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/jobs/simulate_output.h"
#include "terminal.h"

namespace ppsim::cli {
namespace {

struct SimulateOptions {
  jobs::SimulateRequest request;
  bool json = false;
  std::string output = "-";
  int width = 0;  // --format text: columns (0 = the terminal's, else 80)
};

// One library call; then says what was written (to a file, not stdout).
int Run(SimulateOptions& o) {
  if (o.json) o.request.format = "json";
  o.request.text = TextOptionsFor(o.output, o.width);
  const Error written = jobs::WriteSimulation(o.request, o.output, [&] { MakeTourFolder(o.output); });
  if (written.code != ErrorCode::kOk) return Report(written);
  if (o.output != "-") std::fprintf(stderr, "ppsim: wrote %s\n", io::DisplayPath(o.output).c_str());
  return 0;
}

const CommandRegistrar simulate_registrar(10, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "place one schedule in time and measure it");
  CLI::Option* named =
      cmd->add_option("--schedule,-s", o->request.schedule, "schedule name (see `ppsim list`; default 1f1b)");
  cmd->add_option("--schedule-file", o->request.schedule_file,
                  "read the order from FILE: PyTorch CSV (.csv) or ppsim text (docs/formats.md)")
      ->excludes(named);
  AddProblemOptions(*cmd, o->request.problem);
  AddModelOptions(*cmd, o->request.problem);
  CLI::Option* json = cmd->add_flag("--json", o->json, "print one JSON object: parameters, metrics, activation series, ops");
  std::vector<std::string> formats;
  for (const jobs::SimulateFormat& f : jobs::SimulateFormats()) formats.push_back(f.name);
  CLI::Option* format =
      cmd->add_option("--format", o->request.format, jobs::SimulateFormatList())->check(CLI::IsMember(formats));
  std::vector<std::string> exports;
  for (const io::ExportFormat& f : io::ExportFormats()) exports.push_back(f.name);
  cmd->add_option("--export", o->request.export_format, "write the schedule instead: " + io::ExportFormatList())
      ->check(CLI::IsMember(exports))
      ->excludes(format)
      ->excludes(json);
  cmd->add_option("--width", o->width, "--format text and the summary: columns (default: the terminal's width, else 80)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--tick-us", o->request.tick_us, "microseconds per tick in --format trace (default 1000)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}));
  cmd->add_option("--placement", o->request.placement,
                  "the stage -> device placement the run must have: loop, vshape, wave or map:0,1,1,0,... "
                  "(one device per stage); a schedule defined for another is refused (docs/formats.md)");
  cmd->add_flag("--critical-path", o->request.critical_path,
                "list one chain of ops from tick 0 to the makespan, each starting when its predecessor ends "
                "(in --json: \"critical_path\", indices into \"ops\")");
  cmd->add_option("-o,--output", o->output, "write to this file (atomically) instead of stdout");
  cmd->callback([o, exit_code, cmd] {
    o->request.shape_given = cmd->count("-P") + cmd->count("-M") + cmd->count("--chunks") > 0;
    *exit_code = Run(*o);
  });
});

}  // namespace
}  // namespace ppsim::cli

// ppsim compare --schedule gpipe,1f1b -P 4 -M 6 [--model FILE --layout STRING] [--with KEY=VALUE] [--json]
// The runs side by side, each measured figure beside its closed form.
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/jobs/comparison.h"
#include "problem_options.h"
#include "terminal.h"

namespace ppsim::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> schedules{"gpipe", "1f1b"};
  io::ProblemOptions problem;
  std::vector<std::string> with;  // KEY=VALUE: each schedule again with it
  bool json = false;
};

int Run(const CompareOptions& o) {
  Result<std::vector<jobs::ComparedRun>> runs = jobs::Compare(o.schedules, o.problem, o.with);
  if (!runs) return Report(runs.error());
  const std::string out = o.json ? jobs::ComparisonJson(*runs) + "\n" : jobs::ComparisonText(*runs, StdoutColumns());
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

const CommandRegistrar compare_registrar(20, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand("compare", "several schedules on one problem, side by side, with closed forms");
  cmd->add_option("--schedule,-s", o->schedules, "comma-separated schedule names (default gpipe,1f1b)")
      ->delimiter(',');
  AddProblemOptions(*cmd, o->problem);
  AddModelOptions(*cmd, o->problem);
  cmd->add_option("--with", o->with,
                  "KEY=VALUE (a problem key, as --set writes it): run each schedule again with it set, beside the "
                  "plain runs, e.g. --with recompute=full; repeatable");
  cmd->add_flag("--json", o->json, "print {runs: [...], makespans_equal, bubbles_equal, cost_basis, ticks_per_unit}");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

// ppsim list [--json]: every schedule with its preconditions and a one-line
// description, in the registry's order. `ppsim list --keys`: the table of
// problem keys (problem_keys.h).
#include <cstdio>
#include <memory>
#include <string>

#include "command.h"
#include "ppsim/jobs/registry_listing.h"
#include "ppsim/problem_keys.h"

namespace ppsim::cli {
namespace {

const CommandRegistrar list_registrar(5, [](CLI::App& app, int* exit_code) {
  auto json = std::make_shared<bool>(false);
  auto keys = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("list", "every schedule with its preconditions and a one-line description");
  cmd->add_flag("--json", *json, "print {\"schedules\": [...]} instead");
  cmd->add_flag("--keys", *keys, "the problem's keys instead: type, range, default and doc of each (docs/keys.md)");
  cmd->callback([json, keys, exit_code] {
    const std::string out = *keys ? (*json ? jobs::KeyTableJson() : KeyTableText())
                                  : (*json ? jobs::ScheduleListJson() : jobs::ScheduleListText());
    std::fwrite(out.data(), 1, out.size(), stdout);
    *exit_code = 0;
  });
});

}  // namespace
}  // namespace ppsim::cli

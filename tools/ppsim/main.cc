// ppsim: simulate, measure, check and draw pipeline-parallel schedules.
// Thin: parses the command line and hands off to core, io and render.
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "command.h"

namespace ppsim::cli {

std::vector<CommandEntry>& Commands() {
  static std::vector<CommandEntry> commands;
  return commands;
}

int Report(const Error& error) {
  std::fprintf(stderr, "ppsim: %s\n", error.message.c_str());
  return ExitCode(error.code);
}

#ifndef PPSIM_WITH_RENDER
int RunRenderHelper(int argc, char** argv);  // render_helper.cc: execs ppsim-render
#endif

}  // namespace ppsim::cli

int main(int argc, char** argv) {
  using namespace ppsim::cli;
#ifndef PPSIM_WITH_RENDER
  if (argc > 1 && std::string_view(argv[1]) == "render") return RunRenderHelper(argc, argv);
#endif
  CLI::App app{"ppsim — simulate, measure, check and draw pipeline-parallel training schedules"};
  app.require_subcommand(1);
  int exit_code = 0;
  auto& commands = Commands();
  std::sort(commands.begin(), commands.end(),
            [](const CommandEntry& a, const CommandEntry& b) { return a.order < b.order; });
  for (const CommandEntry& c : commands) c.setup(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, and the usage exit code.
    std::fprintf(stderr, "ppsim: %s\n", e.what());
    return ppsim::ExitCode(ppsim::ErrorCode::kUsage);
  }
  return exit_code;
}

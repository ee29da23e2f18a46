// ppsim: simulate, measure, check and draw pipeline-parallel schedules.
// Every subcommand but render runs here (cli_main.cc); `ppsim render` is
// handed, before anything is parsed, to `ppsim-render` beside this binary
// (render_helper.cc), so that a process that never draws never loads the
// drawing libraries.
#include <string_view>

#include "run_cli.h"

int main(int argc, char** argv) {
  using namespace ppsim::cli;
  if (argc > 1 && std::string_view(argv[1]) == "render") return RunRenderHelper(argc, argv);
  return RunCli(argc, argv, RenderCommand::kElsewhere);
}

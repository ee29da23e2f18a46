// ppsim-render: the whole command line with the drawing libraries linked
// in; `ppsim render` execs it (render_helper.cc). It also runs every other
// subcommand, as `ppsim` does.
#include "run_cli.h"

int main(int argc, char** argv) { return ppsim::cli::RunCli(argc, argv, ppsim::cli::RenderCommand::kHere); }

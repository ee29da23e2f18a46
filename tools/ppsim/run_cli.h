// The two binaries' entry points, kept apart from command.h so that their
// main() compiles without CLI11 (the CLI's one heavy header).
#pragma once

namespace ppsim::cli {

// Where `render` runs: in this process (ppsim-render, which links
// cmd_render.cc), or in ppsim-render, which `ppsim` hands it to.
enum class RenderCommand { kHere, kElsewhere };

// Parses the command line, runs the subcommand, returns the exit code.
int RunCli(int argc, char** argv, RenderCommand render);

// Execs `ppsim-render` beside this binary with the same arguments; returns
// only if it cannot, with the missing-tool exit code (render_helper.cc).
int RunRenderHelper(int argc, char** argv);

}  // namespace ppsim::cli

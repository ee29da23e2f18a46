// Subcommands register themselves: each tools/ppsim/cmd_<name>.cc defines a
// static CommandRegistrar that adds its CLI11 subcommand, so adding a command
// touches no shared file. A command's callback returns a process exit code.
// The files are compiled as one unit (CMakeLists.txt: CLI11 is parsed and
// instantiated once), so each registrar has its command's name.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::jobs {
struct ExplainReport;
}

namespace ppsim::cli {

// Adds the subcommand to `app`; the callback it installs must set `*exit_code`.
using CommandSetup = std::function<void(CLI::App& app, int* exit_code)>;

struct CommandEntry {
  int order;  // position in `ppsim --help`
  CommandSetup setup;
};

std::vector<CommandEntry>& Commands();

// render's place in `ppsim --help`, in both binaries (cmd_render.cc, cli_main.cc).
inline constexpr int kRenderOrder = 50;
// `render`'s line in `ppsim --help`, in both binaries (cli_main.cc): the
// formats from render/output_format.h's table.
std::string RenderSummary();

struct CommandRegistrar {
  CommandRegistrar(int order, CommandSetup setup) { Commands().push_back({order, std::move(setup)}); }
};

// The README tour writes into out/: a file directly in out/ (or ./out/)
// creates that folder when it is missing. Any other missing folder is an error.
void MakeTourFolder(const std::string& output_path);

// The CLI's flag for a library's field or parameter: "P" -> "-P", "costs"
// -> "--cost", "cost_per" -> "--cost-per", "at_tick" -> "--at-tick", "set"
// -> "--set", "output" -> "-o" (cli_error.cc).
std::string CliFlag(std::string_view field);
// `e` as the command line spells it: its `via` as a flag, and its field too
// when the value came from the command line (an error placed in a file or
// given through --set keeps the key's name).
Error AsCliError(const Error& e);

// Prints "ppsim: <message>" (AsCliError) on stderr and returns the error's exit code.
int Report(const Error& error);

// Draws `explain -o` pictures (.svg, .png, .html): set in ppsim-render
// (explain_pictures.cc), which links the drawing libraries; null in `ppsim`,
// which hands such a command to ppsim-render (HandToRenderBinary).
using ExplainPictureWriter = Error (*)(const jobs::ExplainReport& report, const std::vector<std::string>& paths);
ExplainPictureWriter& ExplainPictures();
// Execs ppsim-render beside this binary with this process's command line
// (render_helper.cc); returns only if it cannot, with the missing-tool exit code.
int HandToRenderBinary();

}  // namespace ppsim::cli

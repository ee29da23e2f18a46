// The command line of both binaries, `ppsim` (main.cc) and `ppsim-render`
// (render_main.cc): every registered subcommand parsed by one CLI11 app.
// Thin: parses the command line and hands off to the libraries.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>

#include "command.h"
#include "ppsim/render/output_format.h"
#include "run_cli.h"

namespace ppsim::cli {

namespace {
int g_argc = 0;
char** g_argv = nullptr;
}  // namespace

ExplainPictureWriter& ExplainPictures() {
  static ExplainPictureWriter writer = nullptr;
  return writer;
}

int HandToRenderBinary() { return RunRenderHelper(g_argc, g_argv); }

std::vector<CommandEntry>& Commands() {
  static std::vector<CommandEntry> commands;
  return commands;
}

void MakeTourFolder(const std::string& path) {
  for (const char* dir : {"out/", "./out/"}) {
    const size_t n = std::strlen(dir);
    if (path.size() > n && path.rfind(dir, 0) == 0 && path.find('/', n) == std::string::npos) mkdir(dir, 0777);
  }
}

// The one line: the error's Text(), its field spelled as our flag.
int Report(const Error& error) {
  std::fprintf(stderr, "ppsim: %s\n", AsCliError(error).Text().c_str());
  return ExitCode(error.code);
}

// What was printed must have reached stdout: a full disk or a closed pipe
// behind it turns a success into the I/O exit code.
int CheckStdout(int exit_code) {
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  const int why = errno;
  if (!failed || exit_code != 0) return exit_code;  // a failed run has said why already
  std::fprintf(stderr, "ppsim: cannot write to stdout: %s\n", std::strerror(why));
  return exit_code == 0 ? ppsim::ExitCode(ppsim::ErrorCode::kIo) : exit_code;
}

std::string RenderSummary() {
  return "check a scene's claims, then draw it: " + render::PictureExtensions() + ", or text (-o - --format text)";
}

// Listed in `ppsim --help` where `ppsim render` would be; `ppsim` hands
// `render` to ppsim-render before parsing (main.cc, render_helper.cc).
void AddRenderStub(CLI::App& app, int*) { app.add_subcommand("render", RenderSummary())->allow_extras(); }

int RunCli(int argc, char** argv, RenderCommand render) {
  g_argc = argc;
  g_argv = argv;
  CLI::App app{"ppsim — simulate, measure, check and draw pipeline-parallel training schedules"};
  app.set_version_flag("--version", "ppsim " PPSIM_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  auto& commands = Commands();
  if (render == RenderCommand::kElsewhere) commands.push_back({kRenderOrder, AddRenderStub});
  std::sort(commands.begin(), commands.end(),
            [](const CommandEntry& a, const CommandEntry& b) { return a.order < b.order; });
  for (const CommandEntry& c : commands) c.setup(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const std::bad_alloc&) {
    // Sizes are checked before allocating; what remains within the limits
    // can still be more than this machine (or its ulimit -v) holds.
    std::fprintf(stderr, "ppsim: out of memory (the input is within ppsim's limits, but this machine or its ulimit "
                         "cannot hold it; see docs/reliability.md)\n");
    return ppsim::ExitCode(ppsim::ErrorCode::kOutOfMemory);
  } catch (const std::length_error&) {
    std::fprintf(stderr, "ppsim: out of memory (a table larger than this machine can address)\n");
    return ppsim::ExitCode(ppsim::ErrorCode::kOutOfMemory);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, and the usage exit code.
    std::fprintf(stderr, "ppsim: %s\n", ppsim::OneLine(e.what()).c_str());
    return ppsim::ExitCode(ppsim::ErrorCode::kUsage);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ppsim: internal error: %s\n", ppsim::OneLine(e.what()).c_str());
    return ppsim::ExitCode(ppsim::ErrorCode::kInternal);
  }
  return CheckStdout(exit_code);
}

}  // namespace ppsim::cli

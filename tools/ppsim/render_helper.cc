// `ppsim render ...` runs `ppsim-render render ...`, the binary beside this
// one that links the drawing libraries (Cairo, Pango, GLib, ...). Keeping
// them out of `ppsim` is what makes simulate, compare, check and validate
// start in a few milliseconds: a process that never draws never loads them.
// ppsim-render itself runs render directly (render_main.cc).
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>

#include "ppsim/error.h"
#include "run_cli.h"

namespace ppsim::cli {

int RunRenderHelper(int argc, char** argv) {
  (void)argc;
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string helper = "ppsim-render";
  if (n > 0) {
    const std::string path(self, static_cast<size_t>(n));
    helper = path.substr(0, path.rfind('/') + 1) + "ppsim-render";
  }
  argv[0] = helper.data();
  ::execv(helper.c_str(), argv);
  std::fprintf(stderr, "ppsim: render runs %s, which cannot be started (%s); build it: cmake --build build --target ppsim-render\n",
               helper.c_str(), std::strerror(errno));
  return ExitCode(ErrorCode::kMissingTool);
}

}  // namespace ppsim::cli

// Runs the built `ppsim` through /bin/sh in a fresh directory, after shell
// set-up commands, with a time limit — for inputs that used to hang, and for
// checking what a run leaves behind in its directory.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim::testing {

// 'text' for /bin/sh.
inline std::string ShellQuote(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A fresh, empty directory, removed at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    std::string t = (std::filesystem::temp_directory_path() / "ppsim-scratch-XXXXXX").string();
    path_ = mkdtemp(t.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  // Entry names, sorted (dot files included).
  std::vector<std::string> List() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string path_;
};

struct DirRun : ToolRun {
  std::vector<std::string> before;  // the directory's entries after SETUP, before ppsim ran
};

// `cd DIR && SETUP; { timeout 60 ppsim ARGS; } >OUT 2>ERR`: "ppsim" in ARGS
// is the built binary, also in $PPSIM; $PPSIM_EXAMPLES is examples/.
inline DirRun RunInDir(const ScratchDir& dir, const std::string& setup, const std::string& args) {
  const std::string base = dir.path() + ".";
  const std::string script = "export PPSIM='" + std::string(PPSIM_BINARY) + "' PPSIM_EXAMPLES='" +
                             std::string(PPSIM_SOURCE_DIR) + "/examples'; cd '" + dir.path() + "' && " +
                             (setup.empty() ? "" : setup + "; ") + "ls -A >'" + base + "before'; " +
                             "ppsim() { timeout 60 \"$PPSIM\" \"$@\"; }; { ppsim " + args + "; } >'" + base +
                             "out' 2>'" + base + "err'";
  DirRun run;
  const int status = std::system(("/bin/bash -c " + ShellQuote(script)).c_str());
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = Slurp(base + "out");
  run.err = Slurp(base + "err");
  std::string listed = Slurp(base + "before");
  for (size_t from = 0; from < listed.size();) {
    const size_t nl = listed.find('\n', from);
    run.before.push_back(listed.substr(from, nl - from));
    from = nl == std::string::npos ? listed.size() : nl + 1;
  }
  std::sort(run.before.begin(), run.before.end());
  for (const char* ext : {"out", "err", "before"}) std::remove((base + ext).c_str());
  return run;
}

}  // namespace ppsim::testing

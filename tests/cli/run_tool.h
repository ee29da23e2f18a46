// Runs the built `ppsim` binary with arguments and captures what it prints.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace ppsim::testing {

struct ToolRun {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// `args` is passed through /bin/sh; quote as needed.
inline ToolRun RunPpsim(const std::string& args) {
  static int counter = 0;
  const std::string err_path =
      "/tmp/ppsim_test_err_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const std::string cmd = std::string(PPSIM_BINARY) + " " + args + " 2>" + err_path;
  ToolRun run;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = Slurp(err_path);
  std::remove(err_path.c_str());
  return run;
}

// A file in /tmp holding `text`, removed when it goes out of scope; `name`
// ends its path (tests in one process give distinct names).
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : path_("/tmp/ppsim_test_" + std::to_string(::getpid()) + "_" + name) {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ppsim::testing

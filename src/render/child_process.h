// A child program run with an argument vector (posix_spawn, no shell): its
// stdin is a pipe we write, its stdout goes to /dev/null, its stderr to a
// temporary file we can show when it fails. SIGPIPE is ignored while a
// ChildProcess exists, so a child that dies makes writes fail with EPIPE
// instead of killing us.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::render {

class ChildProcess {
 public:
  // kMissingTool (naming `install_hint`) if the program cannot be found or run.
  static Result<std::unique_ptr<ChildProcess>> Spawn(const std::vector<std::string>& argv,
                                                     const std::string& install_hint);
  ~ChildProcess();  // closes stdin, waits if still running, removes the log
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `n` bytes to the child's stdin; false if the child has gone.
  bool Write(const void* data, size_t n);
  // Closes stdin and waits. Returns "" on exit status 0, else how it ended
  // ("exit status 1", "signal Killed").
  std::string Finish();
  // The end of what the child wrote on stderr, its lines joined into one.
  std::string ErrorOutput() const;

 private:
  ChildProcess() = default;
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  std::string log_path_;
  bool sigpipe_saved_ = false;
  struct sigaction saved_sigpipe_ {};
};

// The executable `name` resolves to on PATH (or itself if it has a '/'), "" if none.
std::string FindProgram(const std::string& name);

}  // namespace ppsim::render

#include "child_process.h"

#include "ppsim/io/temp_registry.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace ppsim::render {

std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::Spawn(const std::vector<std::string>& args,
                                                          const std::string& install_hint) {
  const std::string program = FindProgram(args.at(0));
  if (program.empty()) return Fail(ErrorCode::kMissingTool, args[0] + " not found on PATH: " + install_hint);
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  const char* tmpdir = std::getenv("TMPDIR");
  std::string log_name = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/ppsim-child-XXXXXX";
  int log_fd = -1;
  {
    io::HoldSignals held;  // created and registered as one step
    log_fd = mkstemp(log_name.data());
    if (log_fd >= 0) io::RegisterTemporary(log_name);
  }
  if (log_fd < 0) return Fail(ErrorCode::kIo, "cannot start " + program + ": " + std::strerror(errno));
  child->log_path_ = log_name;
  int pipe_fds[2] = {-1, -1};
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    close(log_fd);
    return Fail(ErrorCode::kIo, "cannot start " + program + ": " + std::strerror(errno));
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  child->sigpipe_saved_ = sigaction(SIGPIPE, &ignore, &child->saved_sigpipe_) == 0;

  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  // The child starts with no signal held back (HoldSignals' mask would be
  // inherited), and is registered before a signal can find it unregistered.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  int error = 0;
  {
    io::HoldSignals held;
    error = posix_spawn(&child->pid_, program.c_str(), &actions, &attributes, argv.data(), environ);
    if (error == 0) io::RegisterChild(child->pid_);
  }
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[0]);
  close(log_fd);
  child->stdin_fd_ = pipe_fds[1];
  if (error != 0) {
    child->pid_ = -1;
    if (error == ENOENT || error == EACCES) {
      return Fail(ErrorCode::kMissingTool, "cannot run " + program + ": " + install_hint);
    }
    return Fail(ErrorCode::kIo, "cannot start " + program + ": " + std::strerror(error));
  }
  return child;
}

ChildProcess::~ChildProcess() {
  Finish();
  if (!log_path_.empty()) {
    unlink(log_path_.c_str());
    io::UnregisterTemporary(log_path_);
  }
  if (sigpipe_saved_) sigaction(SIGPIPE, &saved_sigpipe_, nullptr);
}

bool ChildProcess::Write(const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = write(stdin_fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;  // EPIPE: the child has gone; Finish() says why
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

std::string ChildProcess::Finish() {
  if (stdin_fd_ >= 0) {
    close(stdin_fd_);
    stdin_fd_ = -1;
  }
  if (pid_ < 0) return "";
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  io::UnregisterChild(pid_);
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 0 ? "" : "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("signal ") + strsignal(WTERMSIG(status));
  return "unknown status";
}

std::string ChildProcess::ErrorOutput() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  // One line: the child's lines joined by "; " (an error message is one line).
  std::string s, line;
  while (std::getline(ss, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) s += (s.empty() ? "" : "; ") + line;
  }
  if (s.size() > 2000) s = "..." + s.substr(s.size() - 2000);
  return s;
}

}  // namespace ppsim::render

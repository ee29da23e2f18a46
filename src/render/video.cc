#include "ppsim/render/video.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "ppsim/render/frame_painter.h"
#include "ppsim/render/temp_file.h"

extern char** environ;

namespace ppsim::render {
namespace {

constexpr const char* kInstallHint = "install ffmpeg (apt-get install ffmpeg)";

// The executable `name` resolves to, or "" if there is none.
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

std::vector<std::string> FfmpegArgs(const std::string& program, const DisplayList& list, const VideoOptions& o,
                                    const std::string& out) {
  const Pacing& p = o.pacing;
  std::vector<std::string> a = {program, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                                "-f", "rawvideo", "-pix_fmt", "bgra",
                                "-s", std::to_string(list.width) + "x" + std::to_string(list.height),
                                "-framerate", std::to_string(p.fps) + "/" + std::to_string(p.frames_per_tick),
                                "-i", "pipe:0"};
  const std::string fps = std::to_string(p.fps);
  switch (o.format) {
    case VideoFormat::kMp4:
      a.insert(a.end(), {"-c:v", "libx264", "-preset", "ultrafast", "-tune", "animation", "-crf", "20",
                         "-pix_fmt", "yuv420p", "-r", fps, "-fps_mode", "cfr", "-movflags", "+faststart", "-f", "mp4"});
      break;
    case VideoFormat::kWebm:
      a.insert(a.end(), {"-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-r", fps, "-fps_mode", "vfr", "-b:v", "0", "-crf", "32",
                         "-deadline", "realtime", "-cpu-used", "8", "-threads", "2", "-f", "webm"});
      break;
    case VideoFormat::kGif:
      a.insert(a.end(), {"-vf", "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=none",
                         "-f", "gif"});
      break;
  }
  // Same input, same bytes: no timestamps, versions or encoder strings.
  a.insert(a.end(), {"-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", out});
  return a;
}

std::string ReadTail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  if (s.size() > 2000) s = "..." + s.substr(s.size() - 2000);
  return s;
}

bool WriteAll(int fd, const std::uint8_t* data, size_t n) {
  while (n > 0) {
    const ssize_t w = write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;  // EPIPE: ffmpeg has gone; its status says why
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool WriteImage(int fd, const Image& image) {
  const size_t row = static_cast<size_t>(image.width) * 4;
  if (static_cast<size_t>(image.stride) == row) return WriteAll(fd, image.data, row * image.height);
  for (int y = 0; y < image.height; ++y) {
    if (!WriteAll(fd, image.data + static_cast<size_t>(y) * image.stride, row)) return false;
  }
  return true;
}

void ShowProgress(long long done, long long total) {
  const int width = 30;
  const int filled = static_cast<int>(width * done / std::max(1LL, total));
  std::fprintf(stderr, "\rppsim: encoding [%s%s] %3lld%% %lld/%lld frames", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), 100 * done / std::max(1LL, total), done, total);
  if (done == total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

// Restores SIGPIPE's disposition when it goes out of scope.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &saved_);
  }
  ~IgnoreSigpipe() { sigaction(SIGPIPE, &saved_, nullptr); }

 private:
  struct sigaction saved_ {};
};

}  // namespace

Error EncodeVideo(const DisplayList& list, const std::string& path, const VideoOptions& options) {
  if (list.width % 2 != 0 || list.height % 2 != 0) {
    return Fail(ErrorCode::kInvalidValue, "video size " + std::to_string(list.width) + "x" +
                                              std::to_string(list.height) + " must be even in both dimensions (yuv420p)");
  }
  const std::string program = FindProgram(options.ffmpeg);
  if (program.empty()) {
    return Fail(ErrorCode::kMissingTool, options.ffmpeg + " not found on PATH: " + kInstallHint);
  }
  Result<std::string> tmp = MakeTempBeside(path);
  if (!tmp.ok()) return tmp.error();
  char log_path[] = "/tmp/ppsim-ffmpeg-XXXXXX";
  const int log_fd = mkstemp(log_path);
  int pipe_fds[2] = {-1, -1};
  if (log_fd < 0 || pipe2(pipe_fds, O_CLOEXEC) != 0) {
    const std::string why = std::strerror(errno);
    if (log_fd >= 0) {
      close(log_fd);
      unlink(log_path);
    }
    unlink(tmp->c_str());
    return Fail(ErrorCode::kIo, "cannot start ffmpeg: " + why);
  }

  const std::vector<std::string> args = FfmpegArgs(program, list, options, *tmp);
  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  IgnoreSigpipe no_sigpipe;
  pid_t pid = -1;
  const int spawn_error = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[0]);
  close(log_fd);
  auto cleanup = [&] {
    unlink(log_path);
    unlink(tmp->c_str());
  };
  if (spawn_error != 0) {
    close(pipe_fds[1]);
    cleanup();
    if (spawn_error == ENOENT || spawn_error == EACCES) {
      return Fail(ErrorCode::kMissingTool, "cannot run " + program + ": " + kInstallHint);
    }
    return Fail(ErrorCode::kIo, "cannot start " + program + ": " + std::strerror(spawn_error));
  }

  // One image per tick; the last one again until the hold is covered.
  const Pacing& p = options.pacing;
  long long hold_inputs = (p.hold_frames + p.frames_per_tick - 1) / p.frames_per_tick;
  // WebM keeps one frame per input image (variable rate) and drops the last
  // image's own duration: one more copy ends the hold on time.
  if (options.format == VideoFormat::kWebm) ++hold_inputs;
  const long long total = list.last_tick + 1 + hold_inputs;
  long long written = 0;
  bool ok = true;
  {
    FramePainter painter(list);
    for (Tick t = 0; t <= list.last_tick && ok; ++t) {
      const Image image = painter.Paint(t);
      const long long copies = t == list.last_tick ? 1 + hold_inputs : 1;
      for (long long c = 0; c < copies && ok; ++c) {
        ok = WriteImage(pipe_fds[1], image);
        ++written;
        if (options.progress && ok) ShowProgress(written, total);
      }
    }
  }
  close(pipe_fds[1]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const bool exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!ok || !exited_ok) {
    std::string how = WIFEXITED(status)   ? "exit status " + std::to_string(WEXITSTATUS(status))
                      : WIFSIGNALED(status) ? std::string("signal ") + strsignal(WTERMSIG(status))
                                            : "unknown status";
    const std::string log = ReadTail(log_path);
    cleanup();
    if (options.progress) std::fprintf(stderr, "\n");
    return Fail(ErrorCode::kIo, "ffmpeg failed writing " + path + " (" + how + ")" + (log.empty() ? "" : ": " + log));
  }
  unlink(log_path);
  if (std::rename(tmp->c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    unlink(tmp->c_str());
    return Fail(ErrorCode::kIo, "cannot write " + path + ": " + why);
  }
  return Error{ErrorCode::kOk, ""};
}

}  // namespace ppsim::render

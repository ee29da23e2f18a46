#include "ppsim/io/atomic_file.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ppsim/io/input_files.h"
#include "ppsim/one_line.h"
#include "ppsim/io/temp_registry.h"

namespace ppsim::io {
namespace {

Error Ok() { return Error::Ok(); }

Error CannotWrite(const std::string& path, const std::string& why) {
  return Fail(ErrorCode::kIo, "cannot write " + DisplayPath(path) + ": " + why);
}

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Follows symlinks to the final target (which need not exist yet); at most
// 40 hops, as the kernel allows.
Result<std::string> ResolveLinks(std::string path) {
  for (int hop = 0; hop < 40; ++hop) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::vector<char> buf(PATH_MAX + 1);
    const ssize_t n = readlink(path.c_str(), buf.data(), PATH_MAX);
    if (n < 0) return CannotWrite(path, std::strerror(errno));
    std::string target(buf.data(), static_cast<size_t>(n));
    path = target.front() == '/' ? target : DirOf(path) + "/" + target;
  }
  return CannotWrite(path, "too many levels of symbolic links");
}

// True iff `path` exists and is written in place: a character device or FIFO.
bool IsStream(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

Error WriteAll(int fd, const std::string& data, const std::string& path) {
  const char* p = data.data();
  size_t n = data.size();
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return CannotWrite(path, std::strerror(errno));
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return Ok();
}

// Writes into an existing device or FIFO, as a shell redirection would.
Error WriteStream(const std::string& path, const std::string& data) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return CannotWrite(path, std::strerror(errno));
  Error e = WriteAll(fd, data, path);
  if (close(fd) != 0 && e.code == ErrorCode::kOk) e = CannotWrite(path, std::strerror(errno));
  return e;
}

Error WriteStdout(const std::string& data) {
  if (!data.empty() && std::fwrite(data.data(), 1, data.size(), stdout) != data.size())
    return Fail(ErrorCode::kIo, std::string("cannot write to stdout: ") + std::strerror(errno));
  if (std::fflush(stdout) != 0) return Fail(ErrorCode::kIo, std::string("cannot write to stdout: ") + std::strerror(errno));
  return Ok();
}

// 0666 less the umask, as open(2) would have created a new file.
mode_t CreationMode() {
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

// kIo unless the existing `target` (links resolved) of output `path` may be
// replaced by a regular file: a block device or a socket is a node that
// cannot be written as a stream and must not be replaced (it is kept, and
// the run refused); nor may an output replace one of the run's own inputs.
Error CheckReplaceable(const std::string& path, const std::string& target) {
  struct stat st {};
  if (lstat(target.c_str(), &st) != 0) return Ok();  // a new file
  if (S_ISBLK(st.st_mode)) return CannotWrite(path, "it is a block device (ppsim writes regular files, FIFOs and character devices)");
  if (S_ISSOCK(st.st_mode)) return CannotWrite(path, "it is a socket (ppsim writes regular files, FIFOs and character devices)");
  if (const std::string input = InputAt(target); !input.empty())
    return CannotWrite(path, input == path ? "it is an input of this command"
                                           : "it is " + DisplayPath(input) + ", an input of this command");
  return Ok();
}

// A fresh, empty temporary for `path`: beside its (link-resolved) target, or
// in $TMPDIR when the target is a device or FIFO. Removed if the run is
// interrupted (temp_registry.h). kIo if it cannot be created.
Result<std::string> StageOutput(const std::string& path) {
  Result<std::string> target = ResolveLinks(path);
  if (!target) return target.error();
  struct stat st {};
  const bool exists = stat(target->c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return CannotWrite(path, "it is a directory");
  if (Error e = CheckReplaceable(path, *target); !e.ok()) return e;
  std::string dir;
  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    const char* t = std::getenv("TMPDIR");
    dir = t != nullptr && *t != '\0' ? t : "/tmp";
  } else {
    dir = DirOf(*target);
    struct stat dst {};
    if (stat(dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode)) return CannotWrite(path, "no directory " + DisplayPath(dir));
  }
  std::string tmp = dir + "/." + BaseOf(*target) + ".tmp-XXXXXX";
  std::vector<char> buf(tmp.begin(), tmp.end());
  buf.push_back('\0');
  int fd = -1;
  {
    HoldSignals held;  // created and registered as one step
    fd = mkstemp(buf.data());
    if (fd >= 0) RegisterTemporary(buf.data());
  }
  if (fd < 0) return CannotWrite(path, std::strerror(errno));
  tmp = buf.data();
  // The replacement keeps an existing file's permissions; a new one gets what open(2) would give.
  fchmod(fd, exists && S_ISREG(st.st_mode) ? (st.st_mode & 07777) : CreationMode());
  close(fd);
  return tmp;
}

// True iff `path` (links followed) is a character device or FIFO.
bool WritesInPlace(const std::string& path) {
  Result<std::string> target = ResolveLinks(path);
  return target.ok() && IsStream(*target);
}

// Removes a staged temporary that will not be committed.
void DiscardStaged(const std::string& tmp) {
  unlink(tmp.c_str());
  UnregisterTemporary(tmp);
}

// Moves a staged temporary onto `path`: rename over the target, or for a
// device/FIFO copy its bytes there; the temporary is gone afterwards.
Error CommitStaged(const std::string& tmp, const std::string& path) {
  Result<std::string> target = ResolveLinks(path);
  if (!target) {
    DiscardStaged(tmp);
    return target.error();
  }
  if (IsStream(*target)) {
    Result<std::string> bytes = ReadFile(tmp, INT64_MAX);
    DiscardStaged(tmp);
    if (!bytes) return bytes.error();
    return WriteStream(*target, *bytes);
  }
  if (Error e = CheckReplaceable(path, *target); !e.ok()) {  // it may have become one since Open
    DiscardStaged(tmp);
    return e;
  }
  if (std::rename(tmp.c_str(), target->c_str()) != 0) {
    const std::string why = std::strerror(errno);
    DiscardStaged(tmp);
    return CannotWrite(path, why);
  }
  UnregisterTemporary(tmp);
  return Ok();
}

}  // namespace

Result<OutputFile> OutputFile::Open(const std::string& path, Devices devices) {
  if (path == "-" || (devices == Devices::kInPlace && WritesInPlace(path))) return OutputFile(path, "");
  Result<std::string> tmp = StageOutput(path);
  if (!tmp) return tmp.error();
  return OutputFile(path, std::move(*tmp));
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)), tmp_(std::exchange(other.tmp_, std::string())) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    if (!tmp_.empty()) DiscardStaged(tmp_);
    path_ = std::move(other.path_);
    tmp_ = std::exchange(other.tmp_, std::string());
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (!tmp_.empty()) DiscardStaged(tmp_);
}

bool OutputFile::ToStream() const { return path_ != "-" && WritesInPlace(path_); }

Error OutputFile::Commit() {
  if (tmp_.empty()) return Ok();
  return CommitStaged(std::exchange(tmp_, std::string()), path_);
}

Error WriteFileAtomically(const std::string& path, const std::string& data) {
  if (path == "-") return WriteStdout(data);
  Result<OutputFile> out = OutputFile::Open(path);
  if (!out) return out.error();
  const int fd = open(out->into().c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return CannotWrite(path, std::strerror(errno));
  Error e = WriteAll(fd, data, path);
  if (close(fd) != 0 && e.code == ErrorCode::kOk) e = CannotWrite(path, std::strerror(errno));
  if (e.code != ErrorCode::kOk) return e;
  return out->Commit();
}

Result<std::string> ReadFile(const std::string& path, std::int64_t max_bytes) {
  const std::string shown = path == "-" ? "<stdin>" : DisplayPath(path);
  auto cannot = [&](const std::string& why) { return Fail(ErrorCode::kIo, "cannot read " + shown + ": " + why); };
  // O_NONBLOCK: opening a FIFO nobody writes to must not wait forever (it
  // then reads as empty); reads block again as usual.
  const int fd = path == "-" ? dup(STDIN_FILENO) : open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return cannot(std::strerror(errno));
  if (path != "-") fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  struct stat st {};
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    const std::string why = S_ISDIR(st.st_mode) ? "it is a directory" : std::strerror(errno);
    close(fd);
    return cannot(why);
  }
  auto too_large = [&] {
    return Fail(ErrorCode::kTooLarge, shown + " holds more than " + std::to_string(max_bytes) +
                                          " bytes, the limit for an input file (refused before reading it all)");
  };
  if (S_ISREG(st.st_mode) && st.st_size > max_bytes) {
    close(fd);
    return too_large();
  }
  std::string text;
  if (S_ISREG(st.st_mode)) {
    text.reserve(static_cast<size_t>(st.st_size));
    NoteInput(path, st.st_dev, st.st_ino);
  }
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      close(fd);
      return cannot(why);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (static_cast<std::int64_t>(text.size()) > max_bytes) {
      close(fd);
      return too_large();
    }
  }
  close(fd);
  return text;
}

std::string DisplayPath(const std::string& path) {
  // OneLine's escapes (one_line.h), with each backslash of the name doubled
  // first so that an escape cannot be mistaken for bytes of the name.
  std::string doubled;
  doubled.reserve(path.size());
  for (char c : path) {
    doubled += c;
    if (c == '\\') doubled += c;
  }
  return OneLine(doubled);
}

}  // namespace ppsim::io

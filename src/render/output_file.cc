#include "ppsim/render/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ppsim::render {
namespace {

Error IoError(const std::string& path, const std::string& what) {
  return Fail(ErrorCode::kIo, "cannot write " + path + ": " + what);
}

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// 0666 less the umask, as open(2) would have created it.
mode_t CreationMode() {
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

Result<std::string> MakeTempBeside(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp = dir + "." + name + ".tmp-XXXXXX";
  std::vector<char> buf(tmp.begin(), tmp.end());
  buf.push_back('\0');
  const int fd = mkstemp(buf.data());
  if (fd < 0) return IoError(path, std::strerror(errno));
  fchmod(fd, CreationMode());  // mkstemp makes it 0600; the output is an ordinary file
  close(fd);
  return std::string(buf.data());
}

Error WriteFileAtomically(const std::string& path, std::string_view bytes) {
  if (path == "-") {
    if (!WriteAll(STDOUT_FILENO, bytes)) return IoError("stdout", std::strerror(errno));
    return Error{ErrorCode::kOk, ""};
  }
  Result<std::string> tmp = MakeTempBeside(path);
  if (!tmp.ok()) return tmp.error();
  const int fd = open(tmp->c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0 || !WriteAll(fd, bytes) || close(fd) != 0) {
    const std::string why = std::strerror(errno);
    unlink(tmp->c_str());
    return IoError(path, why);
  }
  if (std::rename(tmp->c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    unlink(tmp->c_str());
    return IoError(path, why);
  }
  return Error{ErrorCode::kOk, ""};
}

}  // namespace ppsim::render

#include "ppsim/render/temp_file.h"

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

}  // namespace ppsim::render

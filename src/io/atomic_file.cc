#include "ppsim/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ppsim {

Error WriteFileAtomically(const std::string& path, const std::string& data) {
  if (path == "-") {
    std::fwrite(data.data(), 1, data.size(), stdout);
    std::fflush(stdout);
    return Error{ErrorCode::kOk, ""};
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(target, ec)) return Fail(ErrorCode::kIo, "cannot write " + path + ": it is a directory");
  if (!fs::is_directory(dir, ec)) return Fail(ErrorCode::kIo, "cannot write " + path + ": no directory " + dir.string());
  const fs::path tmp = dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()));
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return Fail(ErrorCode::kIo, "cannot write " + path + ": " + std::strerror(errno));
    f.write(data.data(), static_cast<std::streamsize>(data.size()));
    f.close();
    if (!f) {
      fs::remove(tmp, ec);
      return Fail(ErrorCode::kIo, "cannot write " + path + ": write failed");
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return Fail(ErrorCode::kIo, "cannot write " + path + ": " + ec.message());
  }
  return Error{ErrorCode::kOk, ""};
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Fail(ErrorCode::kIo, "cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace ppsim

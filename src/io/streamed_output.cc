#include "ppsim/streamed_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace ppsim {
namespace {

JsonOut::Sink FileSink(std::FILE* f) {
  return [f](std::string_view s) { return std::fwrite(s.data(), 1, s.size(), f) == s.size(); };
}

Error CannotWrite(const std::string& path, const std::string& why) {
  return Fail(ErrorCode::kIo, "cannot write " + path + ": " + why);
}

}  // namespace

Error WriteStreamed(const std::string& path, const std::function<bool(JsonOut&)>& produce) {
  if (path == "-") {
    JsonOut out(FileSink(stdout));
    const bool ok = produce(out) && out.Finish();
    if (!ok || std::fflush(stdout) != 0 || std::ferror(stdout)) return CannotWrite("stdout", std::strerror(errno));
    return Error{ErrorCode::kOk, ""};
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(target, ec)) return CannotWrite(path, "it is a directory");
  if (!fs::is_directory(dir, ec)) return CannotWrite(path, "no directory " + dir.string());
  const fs::path tmp = dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()));
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return CannotWrite(path, std::strerror(errno));
  bool ok;
  {
    JsonOut out(FileSink(f));
    ok = produce(out) && out.Finish();
  }
  ok = std::fclose(f) == 0 && ok;
  if (ok) fs::rename(tmp, target, ec);
  if (!ok || ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return CannotWrite(path, ok ? ec.message() : "write failed");
  }
  return Error{ErrorCode::kOk, ""};
}

}  // namespace ppsim

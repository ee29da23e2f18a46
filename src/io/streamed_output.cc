#include "ppsim/io/streamed_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "ppsim/io/atomic_file.h"

namespace ppsim::io {
namespace {

JsonOut::Sink FileSink(std::FILE* f) {
  return [f](std::string_view s) { return std::fwrite(s.data(), 1, s.size(), f) == s.size(); };
}

Error CannotWrite(const std::string& path, const std::string& why) {
  return Fail(ErrorCode::kIo, "cannot write " + DisplayPath(path) + ": " + why);
}

}  // namespace

Error WriteStreamed(const std::string& path, const std::function<bool(JsonOut&)>& produce) {
  if (path == "-") {
    JsonOut out(FileSink(stdout));
    const bool ok = produce(out) && out.Finish();
    if (!ok || std::fflush(stdout) != 0 || std::ferror(stdout))
      return Fail(ErrorCode::kIo, std::string("cannot write to stdout: ") + std::strerror(errno));
    return Error::Ok();
  }
  // The file's fate is atomic_file.h's: a device or FIFO is written in
  // place, anything else through a staged temporary (removed on a signal).
  Result<OutputFile> file = OutputFile::Open(path);
  if (!file) return file.error();
  std::FILE* f = std::fopen(file->into().c_str(), "wb");
  if (f == nullptr) return CannotWrite(path, std::strerror(errno));
  bool ok;
  {
    JsonOut out(FileSink(f));
    ok = produce(out) && out.Finish();
  }
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return CannotWrite(path, std::strerror(errno));
  return file->Commit();
}

}  // namespace ppsim::io

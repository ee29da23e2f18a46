#include "kineto_source.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "ppsim/io/atomic_file.h"

namespace ppsim::io {
namespace {

constexpr size_t kChunk = size_t{1} << 20;

bool EndsWith(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

Result<std::unique_ptr<KinetoSource>> KinetoSource::Open(const std::string& path) {
  std::unique_ptr<KinetoSource> s(new KinetoSource());
  s->file_ = std::fopen(path.c_str(), "rb");
  if (s->file_ == nullptr)
    return Fail(ErrorCode::kIo, DisplayPath(path) + ": cannot read: " + std::strerror(errno));
  unsigned char magic[2] = {0, 0};
  const size_t got = std::fread(magic, 1, 2, s->file_);
  const bool is_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  if (EndsWith(path, ".gz") && !is_gzip)
    return Fail(ErrorCode::kIo, DisplayPath(path) + ": named .gz but is not gzip (no 1f 8b magic bytes)");
  std::rewind(s->file_);
  if (is_gzip) {
    const int fd = dup(fileno(s->file_));
    s->gz_ = fd < 0 ? nullptr : gzdopen(fd, "rb");
    if (s->gz_ == nullptr) return Fail(ErrorCode::kIo, DisplayPath(path) + ": cannot open as gzip");
    gzbuffer(static_cast<gzFile>(s->gz_), 1 << 17);
  }
  s->chunk_.resize(kChunk);
  s->pos_ = s->end_ = s->chunk_.data();
  return s;
}

KinetoSource::~KinetoSource() {
  if (gz_ != nullptr) gzclose(static_cast<gzFile>(gz_));
  if (file_ != nullptr) std::fclose(file_);
}

bool KinetoSource::Refill(const char** keep) {
  if (!error_.empty()) return false;
  const size_t from = static_cast<size_t>(*keep - chunk_.data());
  const size_t kept = static_cast<size_t>(end_ - *keep);
  consumed_ += static_cast<std::int64_t>(from);
  if (kept > 0) {
    if (kept > chunk_.size() / 2) chunk_.resize(chunk_.size() * 2);  // a long token: room for it and a chunk
    std::memmove(chunk_.data(), chunk_.data() + from, kept);
  }
  char* const at = chunk_.data() + kept;
  const size_t room = chunk_.size() - kept;
  std::int64_t n = 0;
  if (gz_ != nullptr) {
    n = gzread(static_cast<gzFile>(gz_), at, static_cast<unsigned>(room));
    int code = Z_OK;
    const char* what = gzerror(static_cast<gzFile>(gz_), &code);
    // A short gzip file reads as 0 bytes with Z_BUF_ERROR ("unexpected end of file"), not as -1.
    if (n < 0 || (n == 0 && code != Z_OK && code != Z_STREAM_END)) {
      std::string text = what;  // "<fd:4>: unexpected end of file": the file is named by the caller
      if (text.starts_with("<fd:")) text = text.substr(std::min(text.size(), text.find(">: ") + 3));
      error_ = "corrupt gzip data: " + text;
      n = 0;
    }
  } else {
    n = static_cast<std::int64_t>(std::fread(at, 1, room, file_));
    if (n == 0 && std::ferror(file_)) error_ = std::string("read error: ") + std::strerror(errno);
  }
  *keep = chunk_.data();
  pos_ = at;
  end_ = at + n;
  const std::int64_t read = consumed_ + static_cast<std::int64_t>(kept) + n;
  if (progress_ && read >= next_) {
    progress_(read);
    next_ += every_;
  }
  return n > 0;
}

}  // namespace ppsim::io

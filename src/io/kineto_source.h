// The bytes of a trace file, read in 1 MiB chunks (plain, or inflated with
// zlib when the file starts with gzip's magic bytes), which the streaming
// JSON parser (json_stream.h) reads in place. Memory is one chunk, and the
// token a refill keeps, whatever the file's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::io {

class KinetoSource {
 public:
  // kIo if `path` cannot be opened, or is named *.gz and is not gzip.
  static Result<std::unique_ptr<KinetoSource>> Open(const std::string& path);
  ~KinetoSource();
  KinetoSource(const KinetoSource&) = delete;
  KinetoSource& operator=(const KinetoSource&) = delete;

  // Reads the next bytes to end_. The bytes from *keep (a pointer into the
  // current chunk, at most end_) to end_ are moved to the chunk's start,
  // before the new ones, and *keep is set to their new place; pos_ then
  // points past them. False when no byte was added: the end of input or a
  // read error (the kept bytes stay).
  bool Refill(const char** keep);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }  // "corrupt gzip data", ...
  std::int64_t consumed() const { return consumed_ + (pos_ - chunk_.data()); }  // bytes handed to the parser
  bool gzip() const { return gz_ != nullptr; }
  // Called with the bytes read so far after each further `every` bytes.
  void OnProgress(std::function<void(std::int64_t)> f, std::int64_t every) {
    progress_ = std::move(f);
    every_ = next_ = every;
  }

  const char* pos_ = nullptr;  // next byte (the parser reads and advances these)
  const char* end_ = nullptr;

 private:
  KinetoSource() = default;
  std::FILE* file_ = nullptr;
  void* gz_ = nullptr;  // gzFile
  std::vector<char> chunk_;
  std::int64_t consumed_ = 0;
  std::string error_;
  std::function<void(std::int64_t)> progress_;
  std::int64_t every_ = 0;
  std::int64_t next_ = 0;
};

}  // namespace ppsim::io

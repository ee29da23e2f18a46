// The bytes of a trace file, read in 1 MiB chunks (plain, or inflated with
// zlib when the file starts with gzip's magic bytes), behind an input
// iterator that nlohmann's SAX parser reads one character at a time. Memory
// is one chunk, whatever the file's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
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

  // Makes bytes available; false at the end of input or on a read error.
  bool Refill();
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }  // "corrupt gzip data", ...
  std::int64_t consumed() const { return consumed_ + (pos_ - chunk_.data()); }  // bytes handed to the parser
  bool gzip() const { return gz_ != nullptr; }
  // Called with the bytes read so far after each further `every` bytes.
  void OnProgress(std::function<void(std::int64_t)> f, std::int64_t every) {
    progress_ = std::move(f);
    every_ = next_ = every;
  }

  const char* pos_ = nullptr;  // next byte (the iterator reads and advances these)
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

// An input iterator over a KinetoSource; equal to the default-constructed
// (end) iterator once the source is exhausted.
class KinetoByteIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  KinetoByteIterator() = default;
  explicit KinetoByteIterator(KinetoSource* source) : s_(source) {}
  const char& operator*() const { return *s_->pos_; }
  KinetoByteIterator& operator++() {
    ++s_->pos_;
    return *this;
  }
  bool operator==(const KinetoByteIterator& other) const { return AtEnd() == other.AtEnd(); }
  bool operator!=(const KinetoByteIterator& other) const { return !(*this == other); }

 private:
  bool AtEnd() const { return s_ == nullptr || (s_->pos_ == s_->end_ && !s_->Refill()); }
  KinetoSource* s_ = nullptr;
};

}  // namespace ppsim::io

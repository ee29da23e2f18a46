// A whole input file as read-only bytes, without copying it when it can be
// mapped. `validate` reads timelines of 80+ MB: reading them copies every
// byte into fresh pages the kernel must first clear, which cost as much as
// parsing them. A regular file is mapped (MAP_PRIVATE, read-only); stdin, a
// FIFO or a device, and every error, go through ReadFile (atomic_file.h), so
// the errors and limits are exactly its own (OpenJson reads a stream only as
// far as it can be JSON).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ppsim/error.h"

namespace ppsim::io {

class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // The bytes; valid while this object lives.
  std::string_view text() const { return map_ != nullptr ? std::string_view(map_, size_) : std::string_view(copy_); }

  // ReadFile(path, max_bytes)'s contract, mapped where possible.
  static Result<MappedFile> Open(const std::string& path, std::int64_t max_bytes);
  // Open's contract for a JSON object or list, except that stdin, a FIFO or
  // a device is read only while it can still be one (nested at most
  // `max_depth` deep): /dev/zero or `yes |` stop at their first byte, which
  // is kept as the last of text() for the parser to report (exit 7).
  static Result<MappedFile> OpenJson(const std::string& path, std::int64_t max_bytes, int max_depth);

 private:
  const char* map_ = nullptr;  // mmap'd bytes, or nullptr: then copy_ holds them
  size_t size_ = 0;
  std::string copy_;
};

}  // namespace ppsim::io

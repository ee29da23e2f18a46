// Outputs are written so that nothing is lost: a regular file is replaced
// atomically (a temporary beside it, renamed over it), so a failed or
// interrupted run leaves the previous file untouched and no partial file
// behind. What a path names decides how:
//   "-"                      stdout, written directly;
//   a character device/FIFO  written directly (/dev/null stays a device);
//   a symlink                its final target is replaced; the link is kept;
//   anything else            a regular file, replaced atomically.
// A write or close error anywhere is kIo naming the path. Inputs are read
// with a size cap, so /dev/zero or an endless FIFO cannot hang a run.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "ppsim/error.h"

namespace ppsim::io {

// One output being written, what every writer goes through (a string, a
// stream, ffmpeg, several outputs committed together). into() names the file
// to write: `path` itself for stdout ("-") and, with Devices::kInPlace, for a
// device or FIFO; otherwise a fresh, empty temporary beside the
// (link-resolved) target — in $TMPDIR for a device or FIFO — that a signal
// removes too (temp_registry.h). Commit() moves it into place: renamed over
// the target, or its bytes copied into a device or FIFO. Destroyed
// uncommitted, it removes its temporary: a failed run leaves the previous
// file untouched and nothing behind.
class OutputFile {
 public:
  // What a device or FIFO gets: written directly, or (for outputs committed
  // all or none) a temporary whose bytes Commit() copies there.
  enum class Devices { kInPlace, kStaged };
  // kIo naming `path` if the temporary cannot be created.
  static Result<OutputFile> Open(const std::string& path, Devices devices = Devices::kInPlace);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  ~OutputFile();

  const std::string& path() const { return path_; }
  const std::string& into() const { return tmp_.empty() ? path_ : tmp_; }
  // True iff the output (links followed) is a character device or FIFO:
  // Commit() then copies bytes there, which cannot be undone, where a
  // regular file's rename all but cannot fail.
  bool ToStream() const;
  // Moves the temporary into place (nothing to do when written directly).
  // kIo naming the path; the temporary is gone either way.
  Error Commit();

 private:
  OutputFile(std::string path, std::string tmp) : path_(std::move(path)), tmp_(std::move(tmp)) {}
  std::string path_;
  std::string tmp_;  // "" = written directly, or committed
};

// Writes `data` to `path` as above. kIo on failure, naming the path.
Error WriteFileAtomically(const std::string& path, const std::string& data);

// Files read as input (scenes, claims, schedules, timelines, cost files) are
// refused above this size, before reading.
inline constexpr std::int64_t kMaxInputBytes = std::int64_t{64} << 20;  // 64 MiB

// Reads a whole file ("-" = stdin). kIo naming the path if it cannot (a
// directory, unreadable); kTooLarge if it holds more than `max_bytes` — a
// regular file is refused before reading, a device or FIFO after reading
// max_bytes + 1 bytes.
Result<std::string> ReadFile(const std::string& path, std::int64_t max_bytes = kMaxInputBytes);

// `path` as printable text: bytes that are not valid UTF-8, and control
// characters, become \xNN, so a message or JSON string can always hold it.
std::string DisplayPath(const std::string& path);

}  // namespace ppsim::io

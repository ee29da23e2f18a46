#include "ppsim/io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <utility>

#include "json_prefix.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/input_files.h"

namespace ppsim::io {

MappedFile::MappedFile(MappedFile&& other) noexcept
    : map_(std::exchange(other.map_, nullptr)), size_(std::exchange(other.size_, 0)), copy_(std::move(other.copy_)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (map_ != nullptr) munmap(const_cast<char*>(map_), size_);
    map_ = std::exchange(other.map_, nullptr);
    size_ = std::exchange(other.size_, 0);
    copy_ = std::move(other.copy_);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (map_ != nullptr) munmap(const_cast<char*>(map_), size_);
}

namespace {

// A stream (stdin, a FIFO, a device) read until EOF, `max_bytes`, or the
// first byte that cannot be JSON, kept as the text's last. nullopt: not a
// stream that opens and reads; ReadFile then says why.
std::optional<Result<std::string>> ReadJsonStream(const std::string& path, std::int64_t max_bytes, int max_depth) {
  const int fd = path == "-" ? dup(STDIN_FILENO) : open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
    close(fd);
    return std::nullopt;
  }
  if (path != "-") fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  JsonPrefix prefix(max_depth);
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    const size_t bad = prefix.Feed(std::string_view(buf, static_cast<size_t>(n)));
    text.append(buf, bad == std::string_view::npos ? static_cast<size_t>(n) : bad + 1);
    if (static_cast<std::int64_t>(text.size()) > max_bytes) {
      close(fd);
      return Result<std::string>(Fail(ErrorCode::kTooLarge, (path == "-" ? "<stdin>" : DisplayPath(path)) +
                                                                 " holds more than " + std::to_string(max_bytes) +
                                                                 " bytes, the limit for an input file (refused before "
                                                                 "reading it all)"));
    }
    if (bad != std::string_view::npos) break;
  }
  close(fd);
  return Result<std::string>(std::move(text));
}

}  // namespace

Result<MappedFile> MappedFile::OpenJson(const std::string& path, std::int64_t max_bytes, int max_depth) {
  std::optional<Result<std::string>> stream = ReadJsonStream(path, max_bytes, max_depth);
  if (!stream) return Open(path, max_bytes);
  if (!stream->ok()) return stream->error();
  MappedFile file;
  file.copy_ = std::move(stream->value());
  return file;
}

Result<MappedFile> MappedFile::Open(const std::string& path, std::int64_t max_bytes) {
  MappedFile file;
  // O_NONBLOCK, as ReadFile: opening a FIFO must not wait for a writer.
  const int fd = path == "-" ? -1 : open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st {};
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= max_bytes) {
    void* at = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (at != MAP_FAILED) {
      madvise(at, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
      file.map_ = static_cast<const char*>(at);
      file.size_ = static_cast<size_t>(st.st_size);
      NoteInput(path, st.st_dev, st.st_ino);
    }
  }
  if (fd >= 0) close(fd);
  if (file.map_ != nullptr) return file;
  Result<std::string> text = ReadFile(path, max_bytes);  // everything else, with its errors
  if (!text) return text.error();
  file.copy_ = std::move(*text);
  return file;
}

}  // namespace ppsim::io

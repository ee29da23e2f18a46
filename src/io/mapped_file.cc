#include "ppsim/io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

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

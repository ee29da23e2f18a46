#include "ppsim/io/kineto_trace.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "targets.h"

namespace ppsim::fuzz {

// The reader takes a path (it streams the file, gzip by its magic bytes), so
// the bytes go to one file per process first.
int KinetoTrace(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/ppsim_fuzz_kineto_" + std::to_string(::getpid()) + ".json";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  const bool written = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  if (!written) return 0;
  (void)io::ReadKinetoTrace(path);
  io::KinetoReadOptions step;
  step.step = 3;
  (void)io::ReadKinetoTrace(path, step);
  std::remove(path.c_str());
  return 0;
}

}  // namespace ppsim::fuzz

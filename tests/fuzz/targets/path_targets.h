// What the fuzz targets of readers that take a path (they stream a file)
// share: the bytes written to one file per process, and `ppsim explain` of
// that file run through to both reports.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "ppsim/jobs/explain.h"

namespace ppsim::fuzz {

// "/tmp/ppsim_fuzz_<name>_<pid><suffix>", holding the bytes; "" if it
// could not be written.
inline std::string BytesToFile(const char* name, const char* suffix, const std::uint8_t* data, std::size_t size) {
  const std::string path = "/tmp/ppsim_fuzz_" + std::string(name) + "_" + std::to_string(::getpid()) + suffix;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return "";
  const bool written = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  return written ? path : "";
}

// `ppsim explain PATH`, its JSON and text reports when it reads.
inline void ExplainAlone(const std::string& path) {
  Result<jobs::ExplainReport> report = jobs::Explain({path}, jobs::ExplainOptions{});
  if (!report) return;
  (void)jobs::ExplainJson(*report);
  (void)jobs::ExplainText(*report);
}

}  // namespace ppsim::fuzz

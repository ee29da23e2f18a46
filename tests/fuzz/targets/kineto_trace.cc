#include "ppsim/io/kineto_trace.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "ppsim/jobs/explain.h"
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
  // A small trace that explain reads alone (one rank of world size 1, or a
  // trace of parts) goes on through `ppsim explain`'s whole pipeline:
  // orders, fit, the three runs, findings, the JSON and text reports.
  Result<io::KinetoTrace> trace = io::ReadKinetoTrace(path);
  if (trace && (trace->world_size <= 1 || !trace->parts.empty()) && trace->actions.size() <= 64 &&
      trace->parts.size() <= 64) {
    Result<jobs::ExplainReport> report = jobs::Explain({path}, jobs::ExplainOptions{});
    if (report) {
      (void)jobs::ExplainJson(*report);
      (void)jobs::ExplainText(*report);
    }
  }
  io::KinetoReadOptions step;
  step.step = 3;
  (void)io::ReadKinetoTrace(path, step);
  std::remove(path.c_str());
  return 0;
}

}  // namespace ppsim::fuzz

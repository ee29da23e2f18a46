#include "ppsim/io/kineto_trace.h"

#include <cstdio>
#include <string>

#include "path_targets.h"
#include "targets.h"

namespace ppsim::fuzz {

// The reader takes a path (it streams the file, gzip by its magic bytes), so
// the bytes go to one file per process first.
int KinetoTrace(const std::uint8_t* data, std::size_t size) {
  const std::string path = BytesToFile("kineto", ".json", data, size);
  if (path.empty()) return 0;
  // A small trace that explain reads alone (one rank of world size 1, or a
  // trace of parts) goes on through `ppsim explain`'s whole pipeline:
  // orders, fit, the three runs, findings, the JSON and text reports.
  Result<io::KinetoTrace> trace = io::ReadKinetoTrace(path);
  if (trace && (trace->world_size <= 1 || !trace->parts.empty()) && trace->actions.size() <= 64 &&
      trace->parts.size() <= 64)
    ExplainAlone(path);
  io::KinetoReadOptions step;
  step.step = 3;
  (void)io::ReadKinetoTrace(path, step);
  std::remove(path.c_str());
  return 0;
}

}  // namespace ppsim::fuzz

#include "ppsim/io/megatron_log.h"

#include <cstdio>
#include <string>

#include "path_targets.h"
#include "targets.h"

namespace ppsim::fuzz {

// The reader takes a path, so the bytes go to one file per process first.
// A log small enough to place quickly (P <= 8, v <= 4, M <= 64) also goes
// through `ppsim explain`'s whole pipeline: Megatron's order placed on the
// log's per-rank figures, findings, the JSON and text reports.
int MegatronTimersLog(const std::uint8_t* data, std::size_t size) {
  const std::string path = BytesToFile("megatron", ".log", data, size);
  if (path.empty()) return 0;
  (void)io::ReadMegatronLog(path, 1);
  Result<io::MegatronLog> log = io::ReadMegatronLog(path);
  if (log) {
    const io::MegatronArgs& a = log->args;
    const std::int64_t per_step = a.micro_batch * a.dp;
    const std::int64_t M = per_step > 0 ? a.global_batch / per_step : 0;
    if (a.P >= 1 && a.P <= 8 && a.v >= 1 && a.v <= 4 && M >= 1 && M <= 64) ExplainAlone(path);
  }
  std::remove(path.c_str());
  return 0;
}

}  // namespace ppsim::fuzz

#include "ppsim/io/megatron_log.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "ppsim/jobs/explain.h"
#include "targets.h"

namespace ppsim::fuzz {

// The reader takes a path, so the bytes go to one file per process first.
// A log small enough to place quickly (P <= 8, v <= 4, M <= 64) also goes
// through `ppsim explain`'s whole pipeline: Megatron's order placed on the
// log's per-rank figures, findings, the JSON and text reports.
int MegatronTimersLog(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/ppsim_fuzz_megatron_" + std::to_string(::getpid()) + ".log";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  const bool written = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  if (!written) return 0;
  (void)io::ReadMegatronLog(path, 1);
  Result<io::MegatronLog> log = io::ReadMegatronLog(path);
  if (log) {
    const io::MegatronArgs& a = log->args;
    const std::int64_t per_step = a.micro_batch * a.dp;
    const std::int64_t M = per_step > 0 ? a.global_batch / per_step : 0;
    if (a.P >= 1 && a.P <= 8 && a.v >= 1 && a.v <= 4 && M >= 1 && M <= 64) {
      Result<jobs::ExplainReport> report = jobs::Explain({path}, jobs::ExplainOptions{});
      if (report) {
        (void)jobs::ExplainJson(*report);
        (void)jobs::ExplainText(*report);
      }
    }
  }
  std::remove(path.c_str());
  return 0;
}

}  // namespace ppsim::fuzz

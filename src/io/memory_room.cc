#include "ppsim/io/memory_room.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace ppsim::io {
namespace {

std::string GiB(std::int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buf;
}

}  // namespace

std::int64_t MemoryAllowed() {
  std::int64_t allowed = INT64_MAX;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) allowed = std::min<std::int64_t>(allowed, std::int64_t{pages} * page);
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit r{};
    if (getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
      allowed = std::min<std::int64_t>(allowed, static_cast<std::int64_t>(std::min<rlim_t>(r.rlim_cur, INT64_MAX)));
  }
  return allowed;
}

Error CheckMemoryRoom(const Problem& p, std::int64_t allowed) {
  // Within kMaxOps (checked by ValidateProblem before or after this), so no
  // product here leaves int64: 3 · 2^12 · 64 · 2^20 · 24 < 2^63.
  if (p.P < 1 || p.v < 1 || p.M < 1) return Error::Ok();  // ValidateProblem names those
  const std::int64_t ops = std::int64_t{kNumOpKinds} * p.P * p.v * p.M;
  if (ops > kMaxOps) return Error::Ok();  // ValidateProblem refuses it, with its own limit
  const std::int64_t need = ops * kBytesPerOp;
  if (need <= allowed) return Error::Ok();
  return Fail(ErrorCode::kTooLarge, "P·v·M = " + std::to_string(ops / kNumOpKinds) + " stage-microbatches need about " +
                                        GiB(need) + "; this process may use " + GiB(allowed) +
                                        " (physical memory, ulimit -v); refused before allocating");
}

}  // namespace ppsim::io

// Memory room: whether a run of so many ops can fit in the memory this
// process may use, decided before anything is allocated. The limit is the
// least of physical memory, `ulimit -v` (RLIMIT_AS) and RLIMIT_DATA; the need
// is the run's ops times the bytes an op costs end to end (measured: 16.9
// bytes/op for `simulate`, docs/performance.md; kBytesPerOp keeps a margin).
// A run the machine cannot hold is refused at once with kTooLarge naming both
// figures, instead of dying of "out of memory" (exit 15) a minute later.
#pragma once

#include <cstdint>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim::io {

// Bytes one op of a placed run costs at its peak (schedule, ends, metrics),
// with a margin over the measured 16.9.
inline constexpr std::int64_t kBytesPerOp = 24;

// The bytes this process may allocate: min(physical memory, RLIMIT_AS,
// RLIMIT_DATA); INT64_MAX when none is known.
std::int64_t MemoryAllowed();

// Ok, or kTooLarge when `problem`'s ops times kBytesPerOp exceed `allowed`
// ("P·v·M = 66666666 stage-microbatches need about 4.5 GiB; this process may
// use 3.0 GiB (physical memory, ulimit -v); refused before allocating").
Error CheckMemoryRoom(const Problem& problem, std::int64_t allowed = MemoryAllowed());

}  // namespace ppsim::io

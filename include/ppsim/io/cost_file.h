// Cost files (docs/costs.md): a small TOML file with a run's op costs, its
// communication latency and its memory model, for `--cost-file`.
//
//   F = 2                    # ticks; one value for every stage ...
//   B = [4, 2, 2, 6]         # ... or one per virtual stage
//   W = 1
//   FB = 5                   # an overlapped forward+backward pair
//   comm = [1, 8, 1]         # per hop s -> s+1 (S-1 values), or one value
//   [memory]
//   activation_bytes = 268435456     # per stage-microbatch
//   freed_by_b_percent = 50
//   param_bytes = 1073741824         # per stage, like grad_bytes, optimizer_bytes
//   limit = 80000000000              # bytes per device
//
// Each key is a key of the key table (problem_keys.h: F is costs.F, [memory]
// limit is memory.limit), checked as everywhere else; errors have
// file:line:col.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim::io {

// Applies the file's settings on top of `problem` (costs, comm, memory).
// kIo if unreadable, kParse with file:line:col for syntax, kUnknownName for
// an unknown key, and the key table's codes for a bad value (kInvalidValue
// for a wrong type, a cost < 1 or a negative size; kTooLarge past a limit).
// Counts of per-stage values are checked by ValidateProblem, once the stages
// are known.
Error ApplyCostFile(const std::string& path, Problem& problem);
Error ApplyCostText(std::string_view text, const std::string& source, Problem& problem);

}  // namespace ppsim::io

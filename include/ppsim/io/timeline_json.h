// The `simulate --json` shape (docs/formats.md; written by simulation_json.h) read
// back. The ops list is `{device, stage, kind, microbatch, start, end}` (plus
// `overlap` for an overlapped pair); `validate` reads the same shape, or just
// its `ops`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/metrics.h"
#include "ppsim/timeline.h"
#include "ppsim/validate.h"

namespace ppsim::io {

// Reads a timeline: the object above, or a bare array of ops. `source` names
// the input in errors ("run.json:3:7: ..."). Fields missing from a bare ops
// list (P, M, stages, placement, costs) are inferred or left unknown.
// The input limit for a timeline file (`validate`): `simulate --json` writes
// about 80 bytes per op, so 10^6 ops are 83 MB, over the 64 MiB of other
// inputs (atomic_file.h). 4 GiB is about 50 M ops.
inline constexpr std::int64_t kMaxTimelineBytes = std::int64_t{4} << 30;
// Arrays and objects nest at most this deep (a deeper one is a parse error).
inline constexpr int kMaxTimelineDepth = 256;

Result<TimelineToCheck> ParseTimelineJson(std::string_view text, const std::string& source);

}  // namespace ppsim::io

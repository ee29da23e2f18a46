// What `ppsim check` reports about a scene's claims — once, or over a sweep
// of top-level values (counterexamples, smallest first) — as the text it
// prints and the object `--json` prints. Python's ppsim.check() returns the same.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"

#include "ppsim/scene/sweep.h"

namespace ppsim::scene {

struct CheckReport {
  bool ok = true;           // every claim holds (at every swept point)
  size_t false_claims = 0;  // without a sweep: how many claims are false
  std::string text;         // the report `ppsim check` prints
  std::string json;         // the line `ppsim check --json` prints, without its newline
};

// Checks the scene `text` (named `path` in messages) with `set` overrides
// ("P=8") and, if `sweep` is not empty, over every combination of its axes
// ("P=1..16", "comm=0,2") on `threads` threads (0 = one per core); with
// `shard` ("I/N", sweep.h's SweepShard), only that shard's points, and the
// JSON gains what MergeSweepShards (sweep_merge.h) needs: a "shard" object
// and each counterexample's grid "point". A false claim is a report with
// ok = false, not an Error; errors are the scene's (kParse, kInvalidValue,
// ...) or a bad sweep axis or shard (kUsage). `with_json` false leaves a
// sweep's json without its counterexamples (only the text is printed).
// `control` reports a sweep's progress and stops it (sweep.h; kInterrupted).
Result<CheckReport> CheckScene(std::string_view text, const std::string& path, const std::vector<std::string>& set,
                               const std::vector<std::string>& sweep, int threads = 0, const std::string& shard = "",
                               bool with_json = true, const SweepControl& control = {});

}  // namespace ppsim::scene

// A stage -> device placement as a user writes it (`simulate --placement`,
// Python's placement=): a named shape — loop (stage s on device s mod P),
// vshape (device d holds d and 2P−1−d; v = 2), wave (Hanayo's zig-zag over
// v chunks: chunk c runs down the devices when c is even, up when odd) —
// or an explicit list, "map:0,1,2,3,3,2,1,0", one device per virtual
// stage. The result is that list, S = P·v values, which Problem::kMap
// places as it is.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim {

// The devices of stages 0..P·v−1. Errors (kInvalidValue, naming
// "placement"): an unknown shape (the known ones listed), vshape at v ≠ 2,
// a list of the wrong length, an entry that is not a whole number or names
// a device ≥ P (with its 1-based item), a device holding other than v
// stages.
Result<std::vector<int>> ParsePlacement(const std::string& text, int P, int v);

}  // namespace ppsim

// The byte figures of `simulate --json` when a memory model is given:
//   static_bytes_per_device, peak_bytes_per_device, memory_limit (null if
//   none), memory_limit_exceeded, and memory_limit_first_exceeded
//   {tick, device, bytes} (null unless exceeded).
#pragma once

#include <nlohmann/json.hpp>

#include "ppsim/memory_bytes.h"

namespace ppsim::io {

// Adds the fields above to `out` (a simulation object).
void AddMemoryBytesJson(const Timeline& timeline, const MemoryBytes& bytes, nlohmann::json& out);

}  // namespace ppsim::io

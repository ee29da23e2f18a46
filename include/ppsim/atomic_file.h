// Outputs are written atomically: into a temp file beside the target, then
// renamed over it. A failed run leaves the previous file untouched and no
// partial file behind.
#pragma once

#include <string>

#include "ppsim/error.h"

namespace ppsim {

// Writes `data` to `path` atomically; "-" writes to stdout. kIo on failure,
// naming the path.
Error WriteFileAtomically(const std::string& path, const std::string& data);

// Reads a whole file; kIo naming the path if it cannot.
Result<std::string> ReadFile(const std::string& path);

}  // namespace ppsim

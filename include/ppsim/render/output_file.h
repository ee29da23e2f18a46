// Outputs are written atomically: a temporary file in the same directory,
// renamed over the destination only when complete. A failed write leaves the
// previous file untouched and no partial file behind.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/error.h"

namespace ppsim::render {

// Writes `bytes` to `path` ("-" = stdout). kIo naming the path on failure.
Error WriteFileAtomically(const std::string& path, std::string_view bytes);

// A fresh temporary path beside `path` ("dir/.name.tmp-XXXXXX"), created
// empty; kIo if the directory is not writable.
Result<std::string> MakeTempBeside(const std::string& path);

}  // namespace ppsim::render

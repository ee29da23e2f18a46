// Large outputs (`simulate --json`, traces) written as they are produced,
// with the guarantees of atomic_file.h: "-" is stdout; a file is written to a
// temporary beside it and renamed over it only once complete, so a failed
// run leaves the previous file untouched and no partial file behind.
#pragma once

#include <functional>
#include <string>

#include "ppsim/error.h"
#include "ppsim/io/json_out.h"

namespace ppsim::io {

// Calls `produce` with a JsonOut bound to `path`. kIo naming the path if the
// file cannot be written (or `produce` returns false).
Error WriteStreamed(const std::string& path, const std::function<bool(JsonOut&)>& produce);

}  // namespace ppsim::io

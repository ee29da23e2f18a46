// A temporary file beside an output, for writers that cannot hand their
// bytes to WriteFileAtomically (ppsim/io/atomic_file.h) — ffmpeg writes the
// video there, and it is renamed over the output only on success.
#pragma once

#include <string>

#include "ppsim/error.h"

namespace ppsim::render {

// A fresh temporary path for `path` ("dir/.name.tmp-XXXXXX"), created empty
// and removed if the run is interrupted: StageOutput (ppsim/io/atomic_file.h).
// Commit it with CommitStaged, drop it with DiscardStaged. kIo if the
// directory is not writable.
Result<std::string> MakeTempBeside(const std::string& path);

}  // namespace ppsim::render

#include "ppsim/render/temp_file.h"

#include "ppsim/io/atomic_file.h"

namespace ppsim::render {

Result<std::string> MakeTempBeside(const std::string& path) { return StageOutput(path); }

}  // namespace ppsim::render

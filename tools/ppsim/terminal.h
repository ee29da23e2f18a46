// What the CLI learns from the terminal it prints text to.
#pragma once

#include <string>

#include "ppsim/render/text_output.h"

namespace ppsim::cli {

// Text written to `output` ("-" = stdout): `width` columns if given (> 0),
// else the terminal's when stdout is one, else PaintText's 100; the
// palette's colours iff it goes to a terminal.
render::TextOptions TextOptionsFor(const std::string& output, int width);

// Columns for plain text on stdout: the terminal's width when stdout is
// one, else 80.
int StdoutColumns();

}  // namespace ppsim::cli

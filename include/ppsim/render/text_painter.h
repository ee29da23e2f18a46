// The terminal painter: the display list's items drawn as characters, one
// column group per tick ("F3" where it fits, else the kind letter), '.' for
// a bubble, a sparkline for the memory gauge. Reads the items' grid
// coordinates (tick, device) instead of their pixel boxes.
#pragma once

#include <string>

#include "ppsim/render/display_list.h"

namespace ppsim::render {

// `columns` is the terminal width (0 = 80, kDefaultTextColumns). With `ansi`, cells take their
// items' colours (24-bit escape codes) — for a terminal, not a file.
std::string PaintText(const DisplayList& list, Tick t, int columns, bool ansi = false);

}  // namespace ppsim::render

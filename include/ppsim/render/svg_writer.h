// SVG painters of a DisplayList: the frame at one tick (text as SVG <text>
// in DejaVu Sans), or the whole animation with SMIL (`--animated`). Output
// bytes depend only on the list.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/render/display_list.h"
#include "ppsim/render/pacing.h"

namespace ppsim::render {

std::string WriteSvg(const DisplayList& list, Tick t);

// `text` as XML character data or an attribute value: & < > " escaped, and
// what XML cannot hold at all (control characters but tab, newline, return;
// bytes that are not UTF-8) replaced by U+FFFD. The one escape of every SVG
// and HTML ppsim writes (the painters', Python's _repr_html_).
std::string XmlEscape(std::string_view text);

// Items appear at their tick, growing cells widen, the closing lines stay.
std::string WriteAnimatedSvg(const DisplayList& list, const Pacing& pacing);

}  // namespace ppsim::render

// The picture formats, in one table: each with its name (--format, Python's
// format=), its file extension, and whether it is a video. Adding a format
// is a row here and its painter (render.cc's PaintStill, or video.h); every
// help string and message that lists formats is made from this table.
// Standard library only (ppsim_draw), so that `ppsim`, which links no
// drawing library, can list them too.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::render {

enum class OutputFormat { kMp4, kWebm, kGif, kSvg, kPng, kHtml, kText };

struct FormatRow {
  const char* name;  // "mp4", ..., "text"
  const char* ext;   // ".mp4", ..., ".txt"
  OutputFormat format;
  bool video;        // many frames, paced (video.h); the rest are one frame
};

// Every format, in the order help strings list them.
const std::vector<FormatRow>& FormatTable();

// From the output's extension (case-insensitive), or `format` if given
// ("mp4", ..., "text"). "-" (stdout) needs a format.
Result<OutputFormat> FormatFor(const std::string& path, const std::string& format);
bool IsVideo(OutputFormat format);
// One frame and not text: svg, png, html (what `explain -o` draws).
bool IsStillPicture(OutputFormat format);
// The error for drawing anything but text to stdout (kUsage, naming "format").
Error StdoutNeedsText();

// For help strings and messages, from the table:
//   PictureExtensions()  ".mp4 .webm .gif .svg .png .html" (every format but text)
//   FormatNames()        "mp4, webm, gif, svg, png, html or text"
//   OneFrameFormats()    ".svg, .png, .html or text" (what --at-tick applies to)
//   StillPictures()      ".svg, .png or .html" (IsStillPicture: explain's pictures)
std::string PictureExtensions();
std::string FormatNames();
std::string OneFrameFormats();
std::string StillPictures();

}  // namespace ppsim::render

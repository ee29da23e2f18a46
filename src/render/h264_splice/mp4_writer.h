// An H.264 elementary stream (Annex B) in an MP4 file, at a constant frame
// rate, without ffmpeg: the boxes ISO/IEC 14496-12 and -15 require for one
// video track, with the index (moov) before the samples (mdat), as ffmpeg's
// `-movflags +faststart` puts it, so a browser can start playing at once.
//
// Assumes one coded picture per access unit, each ending with its one slice
// (what h264_repeat.h writes and assumes), and one SPS and one PPS, which
// go into the avcC box and are dropped from the samples. Output is the same
// bytes for the same input: no times, no versions.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/error.h"

namespace ppsim::render {

struct Mp4Track {
  int width = 0;          // the picture size, in pixels
  int height = 0;
  int timescale = 0;      // ticks per second of the track's clock
  int frame_ticks = 0;    // every sample lasts this many ticks (constant rate)
};

// kInvalidValue naming what is missing (no SPS, no picture) or too large.
Result<std::string> Mp4FromAnnexB(std::string_view annexb, const Mp4Track& track);

}  // namespace ppsim::render

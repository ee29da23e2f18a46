// Holding a picture in an H.264 stream without encoding it again: after the
// i-th coded picture of an Annex B stream, `copies[i] - 1` P pictures whose
// every macroblock is P_Skip (motion 0, no residual, no deblocking) — an exact
// copy of the picture before, a few bytes each. The encoder's own pictures
// get their frame_num and pic_order_cnt_lsb renumbered to make room.
//
// Supports what x264 writes without B-frames: one slice per picture,
// progressive, CAVLC or CABAC-free P slices (the copies are CAVLC, so the
// stream's PPS must be CAVLC), pic_order_cnt_type 0 or 2.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::render {

// kInvalidValue naming what is not supported (e.g. a CABAC stream).
Result<std::string> RepeatPictures(const std::string& annexb, const std::vector<long long>& copies);

}  // namespace ppsim::render

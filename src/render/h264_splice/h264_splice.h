// The H.264 repeat splicer: a constant-frame-rate MP4 from a stream in
// which x264 coded each distinct image once.
//
// What it saves. A chart video shows each tick for several frames, opens on
// a poster and ends on a hold of seconds, so most of its frames repeat the
// one before. Encoding every frame makes x264 convert and code each copy.
// Here x264 (one ffmpeg run) codes each distinct image once; every copy is
// a P picture whose macroblocks are all P_Skip, a few bytes written by hand
// (h264_repeat.h), and the MP4 boxes are written here too (mp4_writer.h),
// so ffmpeg is started once per video, not twice (encode, then mux), and
// never sees a repeated frame. The default scene at 1920x1080, 30 fps: about
// 1 CPU-second with ffmpeg, against 9 when every frame is encoded
// (docs/performance.md).
//
// What it assumes of the encoder's stream (the flags in video.cc ask x264
// for it): Annex B; one SPS and one PPS, before the first picture; one slice
// per picture; progressive frames; no B-frames and one reference frame;
// CAVLC (the copies are CAVLC); pic_order_cnt_type 0 or 2. A stream that
// breaks one of these is refused with a message naming it, never spliced
// wrongly.
//
// The way out. If an x264 or ffmpeg release stops writing such a stream,
// set VideoOptions::mp4 (render.h: RenderOptions::mp4) to
// Mp4Coding::kEveryFrame: every frame is sent to x264 and ffmpeg writes the
// MP4 itself, and nothing in this folder runs. Both paths give the same
// frames at the same rate (tests/render/video_test.cc).
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::render {

// The MP4 of `annexb` (one coded picture per distinct image) in which
// picture i lasts copies[i] frames at `fps`.
// kInvalidValue naming an assumption above that the stream breaks.
Result<std::string> SpliceMp4(const std::string& annexb, const std::vector<long long>& copies, int width,
                              int height, int fps);

}  // namespace ppsim::render

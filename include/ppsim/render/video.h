// Video by ffmpeg, started once per video: frames painted by FramePainter
// are piped to an `ffmpeg` child (spawned with an argument vector, no shell)
// as raw BGRA, one image per tick. An MP4 codes each image once and holds it
// by skipped P pictures (constant frame rate at fps; src/render/h264_splice/
// says what that saves and assumes), or, with Mp4Coding::kEveryFrame, sends
// x264 every frame; WebM and GIF get the final image again for the hold.
// The output is written to a temporary file next to it, renamed into place
// only when everything succeeded; on failure ffmpeg's error output is shown.
// Encoder flags are bitexact, so the same list gives the same bytes.
#pragma once

#include <functional>
#include <string>

#include "ppsim/error.h"
#include "ppsim/render/display_list.h"
#include "ppsim/render/pacing.h"

namespace ppsim::render {

enum class VideoFormat { kMp4, kWebm, kGif };

// How an MP4 holds a repeated image.
enum class Mp4Coding {
  kSplice,      // coded once, repeats spliced in as skipped pictures (default: x264 never codes a copy)
  kEveryFrame,  // every frame encoded by x264 and muxed by ffmpeg: relies on nothing but ffmpeg
};

struct VideoOptions {
  VideoFormat format = VideoFormat::kMp4;
  Pacing pacing;
  // A progress bar on stderr (the caller decides: when stderr is a terminal).
  bool progress = false;
  // The program to run; looked up on PATH unless it contains a '/'.
  std::string ffmpeg = "ffmpeg";
  Mp4Coding mp4 = Mp4Coding::kSplice;
  // Asked between images (may be empty): true stops the video with
  // kInterrupted, and nothing is written (Python's Ctrl-C).
  std::function<bool()> cancelled;
};

// REQUIRES: even list.width and list.height (yuv420p).
// kMissingTool if ffmpeg is not found, kIo if it fails (with its message),
// kInterrupted if options.cancelled said so.
Error EncodeVideo(const DisplayList& list, const std::string& path, const VideoOptions& options);

}  // namespace ppsim::render

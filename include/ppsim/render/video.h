// Video by ffmpeg: frames painted by FramePainter are piped to an `ffmpeg`
// child (spawned with an argument vector, no shell) as raw BGRA, one image
// per tick. An MP4 codes each image once and holds it by skipped P pictures
// (constant frame rate at fps); WebM and GIF get the final image again for
// the hold. ffmpeg writes a temporary file next to the output, renamed into
// place only when ffmpeg exits 0; on failure its error output is shown.
// Encoder flags are bitexact, so the same list gives the same bytes.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/render/display_list.h"
#include "ppsim/render/pacing.h"

namespace ppsim::render {

enum class VideoFormat { kMp4, kWebm, kGif };

struct VideoOptions {
  VideoFormat format = VideoFormat::kMp4;
  Pacing pacing;
  // A progress bar on stderr (the caller decides: when stderr is a terminal).
  bool progress = false;
  // The program to run; looked up on PATH unless it contains a '/'.
  std::string ffmpeg = "ffmpeg";
};

// REQUIRES: even list.width and list.height (yuv420p).
// kMissingTool if ffmpeg is not found, kIo if it fails (with its message).
Error EncodeVideo(const DisplayList& list, const std::string& path, const VideoOptions& options);

}  // namespace ppsim::render

#include "ppsim/render/video.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "child_process.h"
#include "ppsim/render/frame_painter.h"
#include "ppsim/render/temp_file.h"

namespace ppsim::render {
namespace {

constexpr const char* kInstallHint = "install ffmpeg (apt-get install ffmpeg)";

std::vector<std::string> FfmpegArgs(const std::string& program, const DisplayList& list, const VideoOptions& o,
                                    const std::string& out) {
  const Pacing& p = o.pacing;
  std::vector<std::string> a = {program, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                                "-f", "rawvideo", "-pix_fmt", "bgra",
                                "-s", std::to_string(list.width) + "x" + std::to_string(list.height),
                                "-framerate", std::to_string(p.fps) + "/" + std::to_string(p.frames_per_tick),
                                "-i", "pipe:0"};
  const std::string fps = std::to_string(p.fps);
  switch (o.format) {
    case VideoFormat::kMp4:
      a.insert(a.end(), {"-c:v", "libx264", "-preset", "ultrafast", "-tune", "animation", "-crf", "20",
                         "-pix_fmt", "yuv420p", "-r", fps, "-fps_mode", "cfr",  //
                         "-movflags", "+faststart", "-f", "mp4"});
      break;
    case VideoFormat::kWebm:
      a.insert(a.end(), {"-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-r", fps, "-fps_mode", "vfr",  //
                         "-b:v", "0", "-crf", "32", "-deadline", "realtime", "-cpu-used", "8", "-threads", "2",
                         "-f", "webm"});
      break;
    case VideoFormat::kGif:
      a.insert(a.end(), {"-vf", "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=none",
                         "-f", "gif"});
      break;
  }
  // Same input, same bytes: no timestamps, versions or encoder strings.
  a.insert(a.end(), {"-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", out});
  return a;
}

bool WriteImage(ChildProcess& ffmpeg, const Image& image) {
  const size_t row = static_cast<size_t>(image.width) * 4;
  if (static_cast<size_t>(image.stride) == row) return ffmpeg.Write(image.data, row * image.height);
  for (int y = 0; y < image.height; ++y) {
    if (!ffmpeg.Write(image.data + static_cast<size_t>(y) * image.stride, row)) return false;
  }
  return true;
}

void ShowProgress(long long done, long long total) {
  const int width = 30;
  const int filled = static_cast<int>(width * done / std::max(1LL, total));
  std::fprintf(stderr, "\rppsim: encoding [%s%s] %3lld%% %lld/%lld frames", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), 100 * done / std::max(1LL, total), done, total);
  if (done == total) std::fprintf(stderr, "\n");
  std::fflush(stderr);
}

// One image per tick, the last one again until the hold is covered; false
// if ffmpeg stopped reading.
bool PipeFrames(const DisplayList& list, const VideoOptions& options, ChildProcess& ffmpeg) {
  const Pacing& p = options.pacing;
  long long hold_inputs = (p.hold_frames + p.frames_per_tick - 1) / p.frames_per_tick;
  // WebM keeps one frame per input image (variable rate) and drops the last
  // image's own duration: one more copy ends the hold on time.
  if (options.format == VideoFormat::kWebm) ++hold_inputs;
  const long long total = list.last_tick + 1 + hold_inputs;
  long long written = 0;
  FramePainter painter(list);
  for (Tick t = 0; t <= list.last_tick; ++t) {
    const Image image = painter.Paint(t);
    const long long copies = t == list.last_tick ? 1 + hold_inputs : 1;
    for (long long c = 0; c < copies; ++c) {
      if (!WriteImage(ffmpeg, image)) return false;
      ++written;
      if (options.progress) ShowProgress(written, total);
    }
  }
  return true;
}

}  // namespace

Error EncodeVideo(const DisplayList& list, const std::string& path, const VideoOptions& options) {
  if (list.width % 2 != 0 || list.height % 2 != 0) {
    return Fail(ErrorCode::kInvalidValue, "video size " + std::to_string(list.width) + "x" +
                                              std::to_string(list.height) + " must be even in both dimensions (yuv420p)");
  }
  const std::string program = FindProgram(options.ffmpeg);
  if (program.empty()) return Fail(ErrorCode::kMissingTool, options.ffmpeg + " not found on PATH: " + kInstallHint);
  Result<std::string> tmp = MakeTempBeside(path);
  if (!tmp.ok()) return tmp.error();
  Result<std::unique_ptr<ChildProcess>> ffmpeg =
      ChildProcess::Spawn(FfmpegArgs(program, list, options, *tmp), kInstallHint);
  if (!ffmpeg.ok()) {
    unlink(tmp->c_str());
    return ffmpeg.error();
  }
  const bool piped = PipeFrames(list, options, **ffmpeg);
  const std::string how = (*ffmpeg)->Finish();
  if (!piped || !how.empty()) {
    const std::string log = (*ffmpeg)->ErrorOutput();
    unlink(tmp->c_str());
    if (options.progress) std::fprintf(stderr, "\n");
    return Fail(ErrorCode::kIo, "ffmpeg failed writing " + path + " (" + (how.empty() ? "stopped reading" : how) +
                                    ")" + (log.empty() ? "" : ": " + log));
  }
  if (std::rename(tmp->c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    unlink(tmp->c_str());
    return Fail(ErrorCode::kIo, "cannot write " + path + ": " + why);
  }
  return Error{ErrorCode::kOk, ""};
}

}  // namespace ppsim::render

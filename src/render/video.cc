#include "ppsim/render/video.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "child_process.h"
#include "ppsim/io/atomic_file.h"
#include "frame_painter.h"
#include "h264_splice/h264_splice.h"

namespace ppsim::render {
namespace {

constexpr const char* kInstallHint = "install ffmpeg (apt-get install ffmpeg)";

std::vector<std::string> FfmpegArgs(const std::string& program, const DisplayList& list, const VideoOptions& o,
                                    const std::string& out) {
  const Pacing& p = o.pacing;
  std::vector<std::string> a = {program, "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                                "-f", "rawvideo", "-pix_fmt", "bgra",
                                "-s", std::to_string(list.width) + "x" + std::to_string(list.height),
                                // MP4: one input image per frame (or per picture to repeat later).
                                "-framerate", std::to_string(p.fps) + "/" +
                                    std::to_string(o.format == VideoFormat::kMp4 ? 1 : p.frames_per_tick),
                                "-i", "pipe:0"};
  const std::string fps = std::to_string(p.fps);
  switch (o.format) {
    case VideoFormat::kMp4:
      if (o.mp4 == Mp4Coding::kEveryFrame) {  // every frame, muxed by ffmpeg
        a.insert(a.end(), {"-c:v", "libx264", "-preset", "ultrafast", "-tune", "animation", "-crf", "20",
                           "-pix_fmt", "yuv420p", "-r", fps, "-movflags", "+faststart", "-f", "mp4"});
        break;
      }
      // One coded picture per image; the repeats are spliced in afterwards
      // (see EncodeMp4). One reference frame, no B-frames, CAVLC: what the
      // splice supports (h264_splice.h).
      a.insert(a.end(), {"-c:v", "libx264", "-preset", "ultrafast", "-tune", "animation", "-crf", "20",
                         "-bf", "0", "-refs", "1", "-coder", "cavlc", "-pix_fmt", "yuv420p",
                         "-fps_mode", "passthrough", "-f", "h264"});
      break;
    case VideoFormat::kWebm:
      // 4:4:4 (VP9 profile 1): 4:2:0 halves the colour resolution, which
      // smears thin text and cell edges (PSNR 33 dB against the PNG; 51 dB so).
      a.insert(a.end(), {"-c:v", "libvpx-vp9", "-pix_fmt", "yuv444p", "-r", fps, "-fps_mode", "vfr",  //
                         "-b:v", "0", "-crf", "20", "-deadline", "realtime", "-cpu-used", "8", "-threads", "2",
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

// Output frames per distinct image of an MP4: the poster (if any), then
// each image (Pacing::Images), the last one with the hold.
std::vector<long long> Mp4Copies(const DisplayList& list, const Pacing& p) {
  std::vector<long long> copies(static_cast<size_t>(p.Images(list.last_tick)), p.frames_per_tick);
  copies.back() += p.hold_frames;
  if (p.poster_frames > 0) copies.insert(copies.begin(), p.poster_frames);
  return copies;
}

// The poster (the final image), then one image per tick (or per
// ticks_per_frame ticks, Pacing::ImageTick), the last one again
// until the hold is covered. An MP4 gets each image once (its repeats are
// spliced in later), or with Mp4Coding::kEveryFrame once per output frame.
// False if ffmpeg stopped reading.
bool PipeFrames(const DisplayList& list, const VideoOptions& options, ChildProcess& ffmpeg) {
  const Pacing& p = options.pacing;
  auto inputs = [&](long long frames) { return (frames + p.frames_per_tick - 1) / p.frames_per_tick; };
  long long hold_inputs = inputs(p.hold_frames);
  long long poster_inputs = inputs(p.poster_frames);
  long long tick_inputs = 1;
  // WebM keeps one frame per input image (variable rate) and drops the last
  // image's own duration: one more copy ends the hold on time.
  if (options.format == VideoFormat::kWebm) ++hold_inputs;
  if (options.format == VideoFormat::kMp4 && options.mp4 == Mp4Coding::kSplice)
    hold_inputs = 0, poster_inputs = p.poster_frames > 0 ? 1 : 0;
  if (options.format == VideoFormat::kMp4 && options.mp4 == Mp4Coding::kEveryFrame)
    hold_inputs = p.hold_frames, poster_inputs = p.poster_frames, tick_inputs = p.frames_per_tick;
  const Tick images = p.Images(list.last_tick);
  const long long total = poster_inputs + images * tick_inputs + hold_inputs;
  long long written = 0;
  FramePainter painter(list);
  auto send = [&](Tick t, long long copies) {
    if (options.cancelled && options.cancelled()) return false;
    const Image image = painter.Paint(t);
    for (long long c = 0; c < copies; ++c) {
      if (!WriteImage(ffmpeg, image)) return false;
      ++written;
      if (options.progress) ShowProgress(written, total);
    }
    return true;
  };
  if (poster_inputs > 0 && !send(list.last_tick, poster_inputs)) return false;
  for (Tick i = 0; i < images; ++i) {
    if (!send(p.ImageTick(i, list.last_tick), i + 1 == images ? tick_inputs + hold_inputs : tick_inputs)) return false;
  }
  return true;
}

// Runs `argv` (ffmpeg writing an OutputFile's temporary, which its owner
// removes on failure), feeding it with `feed`; on failure says why, naming `path`.
template <typename Feed>
Error RunFfmpeg(const std::vector<std::string>& argv, const std::string& path, bool progress,
                const std::function<bool()>& cancelled, Feed feed) {
  Result<std::unique_ptr<ChildProcess>> ffmpeg = ChildProcess::Spawn(argv, kInstallHint);
  if (!ffmpeg.ok()) return ffmpeg.error();
  const bool piped = feed(**ffmpeg);
  const std::string how = (*ffmpeg)->Finish();
  if (!piped && cancelled && cancelled()) {
    if (progress) std::fprintf(stderr, "\n");
    return Fail(ErrorCode::kInterrupted, "interrupted while writing " + path + "; nothing written");
  }
  if (!piped || !how.empty()) {
    const std::string log = (*ffmpeg)->ErrorOutput();
    if (progress) std::fprintf(stderr, "\n");
    return Fail(ErrorCode::kIo, "ffmpeg failed writing " + path + " (" + (how.empty() ? "stopped reading" : how) +
                                    ")" + (log.empty() ? "" : ": " + log));
  }
  return Error::Ok();
}

// The MP4 with ffmpeg started once: x264 codes each distinct image once
// (an H.264 stream in a temporary file), then each picture is repeated to
// its number of output frames by all-skip P pictures and the MP4 is written
// here (h264_splice.h). The file is constant frame rate at fps, and x264
// never sees a repeated frame.
Error EncodeMp4(const std::string& program, const DisplayList& list, const VideoOptions& options,
                const std::string& path, const std::string& tmp) {
  Result<io::OutputFile> h264 = io::OutputFile::Open(path, io::OutputFile::Devices::kStaged);  // scratch: never committed
  if (!h264.ok()) return h264.error();
  Error e = RunFfmpeg(FfmpegArgs(program, list, options, h264->into()), path, options.progress, options.cancelled,
                      [&](ChildProcess& ffmpeg) { return PipeFrames(list, options, ffmpeg); });
  if (e.code != ErrorCode::kOk) return e;
  Result<std::string> coded = io::ReadFile(h264->into(), INT64_MAX);
  if (!coded.ok()) return coded.error();
  Result<std::string> mp4 = SpliceMp4(*coded, Mp4Copies(list, options.pacing), list.width, list.height,
                                      options.pacing.fps);
  if (!mp4.ok()) return Fail(ErrorCode::kIo, "cannot write " + path + ": " + mp4.error().message);
  return io::WriteFileAtomically(tmp, *mp4);
}

}  // namespace

Error EncodeVideo(const DisplayList& list, const std::string& path, const VideoOptions& options) {
  if (list.width % 2 != 0 || list.height % 2 != 0) {
    return Fail(ErrorCode::kInvalidValue, "video size " + std::to_string(list.width) + "x" +
                                              std::to_string(list.height) + " must be even in both dimensions (yuv420p)");
  }
  const std::string program = FindProgram(options.ffmpeg);
  if (program.empty()) return Fail(ErrorCode::kMissingTool, options.ffmpeg + " not found on PATH: " + kInstallHint);
  // ffmpeg writes a temporary; a device or FIFO gets its bytes, a link's target is replaced.
  Result<io::OutputFile> out = io::OutputFile::Open(path, io::OutputFile::Devices::kStaged);
  if (!out.ok()) return out.error();
  Error e = options.format == VideoFormat::kMp4 && options.mp4 == Mp4Coding::kSplice
                ? EncodeMp4(program, list, options, path, out->into())
                : RunFfmpeg(FfmpegArgs(program, list, options, out->into()), path, options.progress, options.cancelled,
                            [&](ChildProcess& ffmpeg) { return PipeFrames(list, options, ffmpeg); });
  if (e.code != ErrorCode::kOk) return e;
  return out->Commit();
}

}  // namespace ppsim::render

#include "ppsim/render/render.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "ppsim/io/atomic_file.h"
#include "ppsim/render_limits.h"
#include "frame_painter.h"
#include "ppsim/render/html_writer.h"
#include "ppsim/render/legibility.h"
#include "pango_measurer.h"
#include "ppsim/render/svg_writer.h"
#include "ppsim/render/text_output.h"
#include "ppsim/render/text_painter.h"
#include "ppsim/render/video.h"

namespace ppsim::render {

Error CheckRenderSize(const std::vector<Problem>& problems) {
  std::int64_t total = 0;  // each term ≤ 4096·64·2^20 = 2^38 (problem.h limits)
  for (const Problem& p : problems) total += std::int64_t{p.P} * p.v * p.M;
  if (total <= kMaxRenderStageMicrobatches) return Error::Ok();
  return Fail(ErrorCode::kTooLarge, "render: the runs hold " + std::to_string(total) +
                                        " stage-microbatches (P·v·M summed over the runs), over the limit " +
                                        std::to_string(kMaxRenderStageMicrobatches) +
                                        " a picture is drawn from; use smaller P or M (simulate handles more)");
}


namespace {

// The bytes of a still format (svg, png, html, text).
Result<std::string> PaintStill(const DisplayList& list, const RenderOptions& options) {
  const Tick t = options.at_tick.value_or(list.last_tick);
  switch (options.format) {
    case OutputFormat::kSvg:
      return options.animated ? WriteAnimatedSvg(list, PaceFor(list.last_tick, options.fps)) : WriteSvg(list, t);
    case OutputFormat::kPng:
      return RenderPng(list, t);
    case OutputFormat::kHtml:
      return WriteHtml(list, PaceFor(list.last_tick, options.fps), options.at_tick.value_or(-1));
    case OutputFormat::kText:
      return PaintText(list, t, options.text_columns, options.text_color);
    default:
      return Fail(ErrorCode::kUsage, "a video has no single picture: use " + OneFrameFormats());
  }
}

}  // namespace

namespace {

// A video's cycles a frame (pacing.h); 1 for every other format.
Tick VideoTicksPerFrame(const LayoutInput& input, const RenderOptions& options) {
  if (!IsVideo(options.format)) return 1;
  Tick last = 0;
  for (const RunInput& r : input.runs) last = std::max(last, r.run->timeline.makespan);
  return PaceFor(last, options.fps).ticks_per_frame;
}

}  // namespace

namespace {

// The runs laid out again for a phone's page: kPhoneDisplayWidth wide where
// viewed, on a frame twice that, as tall as the runs need at 9 px text
// (about 110 px a run and 14 px a device row there, beside 230 px of title,
// legend and closing lines). Null when even that is illegible.
std::shared_ptr<const DisplayList> PhoneLayout(const LayoutInput& input, TextMeasurer& measurer) {
  LayoutInput in = input;
  int rows = 0;
  for (const RunInput& r : input.runs) rows += std::min(r.run->timeline.problem.P, 16);
  in.display_width = kPhoneDisplayWidth;
  in.width = 2 * kPhoneDisplayWidth;
  in.height = std::min(kMaxFramePx, 2 * (230 + 110 * static_cast<int>(input.runs.size()) + 14 * rows));
  Result<DisplayList> list = Layout(in, measurer);
  if (!list.ok() || CheckLegibility(*list, measurer).code != ErrorCode::kOk) return nullptr;
  return std::make_shared<const DisplayList>(std::move(*list));
}

}  // namespace

int EffectiveDisplayWidth(const LayoutInput& input, const RenderOptions& options) {
  if (input.display_width != 0) return input.display_width;
  if (options.display_width > 0) return options.display_width;
  return options.format == OutputFormat::kHtml || IsVideo(options.format) ? kHtmlDisplayWidth : 0;
}

bool SameLayout(const RenderOptions& a, const RenderOptions& b, const LayoutInput& input) {
  return EffectiveDisplayWidth(input, a) == EffectiveDisplayWidth(input, b) &&
         VideoTicksPerFrame(input, a) == VideoTicksPerFrame(input, b) &&
         (a.format == OutputFormat::kHtml) == (b.format == OutputFormat::kHtml) &&
         (a.format == OutputFormat::kText) == (b.format == OutputFormat::kText) && a.fps == b.fps &&
         a.at_tick == b.at_tick;
}

Result<DisplayList> LayOut(const LayoutInput& input, const RenderOptions& options) {
  if (options.fps < kMinFps || options.fps > kMaxFps) {
    return Error::Field(ErrorCode::kInvalidValue, "fps", " " + std::to_string(options.fps) + " is outside " + FpsRangeText());
  }
  // Text is laid out in character cells, with no font: the terminal shows
  // the chart `simulate --format text` prints (text_output.h).
  std::unique_ptr<TextMeasurer> measurer;  // pixels only
  if (options.format != OutputFormat::kText) {
    Result<std::unique_ptr<TextMeasurer>> pango = PangoMeasurer::Create();
    if (!pango.ok()) return pango.error();
    measurer = std::move(*pango);
  }
  LayoutInput in = input;
  in.display_width = EffectiveDisplayWidth(input, options);
  in.ticks_per_frame = VideoTicksPerFrame(input, options);
  Result<DisplayList> list = measurer != nullptr ? Layout(in, *measurer) : LayOutText(input);
  if (!list.ok()) return list.error();
  if (options.at_tick && (*options.at_tick < 0 || *options.at_tick > list->last_tick)) {
    return Error::Field(ErrorCode::kInvalidValue, "at_tick",
                        " " + std::to_string(*options.at_tick) + " is outside 0.." +
                            std::to_string(list->last_tick) + " (the longest makespan)");
  }
  if (measurer != nullptr) {  // pixels: every text box checked with the font it is painted in
    if (Error e = CheckLegibility(*list, *measurer); e.code != ErrorCode::kOk) return e;
  }
  if (options.format == OutputFormat::kHtml) list->phone = PhoneLayout(in, *measurer);
  return list;
}

Error Paint(const DisplayList& list, const std::string& path, const RenderOptions& options) {
  if (options.format != OutputFormat::kText && path == "-") {
    return StdoutNeedsText();
  }
  if (IsVideo(options.format)) {
    VideoOptions v;
    v.format = options.format == OutputFormat::kMp4    ? VideoFormat::kMp4
               : options.format == OutputFormat::kWebm ? VideoFormat::kWebm
                                                       : VideoFormat::kGif;
    v.pacing = PaceFor(list.last_tick, options.fps);
    v.progress = options.progress;
    v.ffmpeg = options.ffmpeg;
    v.mp4 = options.mp4;
    v.cancelled = options.cancelled;
    return EncodeVideo(list, path, v);
  }
  Result<std::string> bytes = PaintStill(list, options);
  return bytes.ok() ? io::WriteFileAtomically(path, *bytes) : bytes.error();
}

Result<std::string> RenderToBytes(const LayoutInput& input, const RenderOptions& options) {
  if (IsVideo(options.format)) return Fail(ErrorCode::kUsage, "a video has no single picture: use " + OneFrameFormats());
  Result<DisplayList> list = LayOut(input, options);
  if (!list.ok()) return list.error();
  return PaintStill(*list, options);
}

}  // namespace ppsim::render

// The renderer's entry point: a scene's runs -> a file in the format its
// name asks for. Lays out once, checks legibility, then paints the same
// display list with the back-end of the format. Nothing is written unless
// everything before the final rename succeeded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/render/layout.h"
#include "ppsim/render/output_format.h"
#include "ppsim/render/video.h"

namespace ppsim::render {

// The width a page or a video is laid out for unless told: a blog's text
// column. A 1920x1080 video embedded there is shown at 0.4x; its text is
// sized to be 9 px at least where it is seen.
inline constexpr int kHtmlDisplayWidth = 760;

// A phone's page width less the page's padding (a 390 px viewport, 8 px a
// side): a page is laid out a second time for it (DisplayList::phone), on a
// frame twice as wide, its text 9 px there.
inline constexpr int kPhoneDisplayWidth = 374;

struct RenderOptions {
  OutputFormat format = OutputFormat::kSvg;
  int fps = 30;                      // video frames per second
  std::optional<Tick> at_tick;       // still images: this tick instead of the final frame
  bool animated = false;             // .svg: SMIL animation instead of the final frame
  // Pixels wide the picture is viewed at (0 = 760 for .html and video, else
  // the frame width): fonts are sized so that no text is under 9 px there.
  int display_width = 0;
  int text_columns = 0;              // terminal width for text (0 = 80)
  bool text_color = false;           // text: ANSI colours (when stdout is a terminal)
  bool progress = false;             // progress bar on stderr while encoding video
  std::string ffmpeg = "ffmpeg";
  Mp4Coding mp4 = Mp4Coding::kSplice;  // .mp4: repeats spliced in, or every frame encoded (video.h)
  std::function<bool()> cancelled;   // videos: asked between images (video.h); may be empty
};

// A picture is drawn from at most this many stage-microbatches (P·v·M summed
// over the runs). Checked before anything is simulated: beyond it a chart
// takes minutes and gigabytes to draw (docs/reliability.md); `simulate`
// handles more.
inline constexpr std::int64_t kMaxRenderStageMicrobatches = std::int64_t{1} << 22;
// kTooLarge, with the total, when `problems` (the runs') exceed it.
Error CheckRenderSize(const std::vector<Problem>& problems);

// Drawing is two calls, so that a caller that draws one layout into several
// files lays out once (`ppsim render -o a.svg -o a.png -o a.mp4`).
// LayOut: `input` laid out at the display width `options` implies and checked
// for its format (fps, at_tick, and legibility for every format but text).
Result<DisplayList> LayOut(const LayoutInput& input, const RenderOptions& options);
// Paints `list` into `path` in `options.format`, atomically (video: ffmpeg).
Error Paint(const DisplayList& list, const std::string& path, const RenderOptions& options);
// The display width a layout is made for: the input's, else the options',
// else 760 for .html and video (.mp4, .webm, .gif), else 0 (the frame width).
int EffectiveDisplayWidth(const LayoutInput& input, const RenderOptions& options);
// True iff LayOut(input, a) and LayOut(input, b) give the same list after the
// same checks, so that one can be painted for both.
bool SameLayout(const RenderOptions& a, const RenderOptions& b, const LayoutInput& input);

// The bytes LayOut + Paint would write for a still format (svg, png, html,
// text), returned instead of written (Python's _repr_svg_). kUsage for video.
Result<std::string> RenderToBytes(const LayoutInput& input, const RenderOptions& options);

}  // namespace ppsim::render

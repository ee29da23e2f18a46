#include "ppsim/render/pacing.h"

#include <algorithm>
#include <cmath>

namespace ppsim::render {

Pacing PaceFor(Tick last_tick, int fps) {
  Pacing p;
  p.fps = fps;
  const double seconds_per_tick = std::min(0.5, 12.0 / static_cast<double>(std::max<Tick>(1, last_tick)));
  p.frames_per_tick = std::max(1, static_cast<int>(std::lround(seconds_per_tick * fps)));
  if (last_tick + 1 > 30 * static_cast<Tick>(fps))
    p.ticks_per_frame = static_cast<Tick>(std::ceil(static_cast<double>(last_tick) / (12.0 * fps)));
  p.hold_frames = 5 * fps;
  p.poster_frames = fps;
  return p;
}

}  // namespace ppsim::render

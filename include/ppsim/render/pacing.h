// How fast an animation advances: one tick at a time, at a readable pace,
// holding the final frame (with the closing lines) at the end. A video opens
// on the final frame too (a poster, so that its first frame is never an empty
// chart), then plays from tick 0.
#pragma once

#include "ppsim/op.h"

namespace ppsim::render {

struct Pacing {
  int fps = 30;
  int frames_per_tick = 15;  // every tick shows this many frames
  int hold_frames = 150;     // the final frame, in addition (>= 5 s)
  int poster_frames = 30;    // videos: the final frame before tick 0
  double SecondsPerTick() const { return static_cast<double>(frames_per_tick) / fps; }
  double HoldSeconds() const { return static_cast<double>(hold_frames) / fps; }
  // Frames in the whole video for ticks 0..last_tick.
  long long TotalFrames(Tick last_tick) const {
    return poster_frames + (last_tick + 1) * frames_per_tick + hold_frames;
  }
};

// Half a second per tick for short runs; longer runs speed up so that the
// animation takes about 12 seconds, but never faster than one frame per tick.
// The final frame is held for 5 seconds, and shown for 1 second before tick 0.
Pacing PaceFor(Tick last_tick, int fps);

}  // namespace ppsim::render

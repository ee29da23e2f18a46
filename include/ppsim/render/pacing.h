// How fast an animation advances: one tick at a time, at a readable pace,
// holding the final frame (with the closing lines) at the end. A video opens
// on the final frame too (a poster, so that its first frame is never an empty
// chart), then plays from tick 0.
#pragma once

#include <algorithm>

#include "ppsim/op.h"

namespace ppsim::render {

struct Pacing {
  int fps = 30;
  int frames_per_tick = 15;  // every tick shows this many frames
  int hold_frames = 150;     // the final frame, in addition (>= 5 s)
  int poster_frames = 30;    // videos: the final frame before tick 0
  // Cycles a video frame advances: 1, or for a run that would play longer
  // than 30 s at a frame a cycle, as many as bring it to about 12 s.
  Tick ticks_per_frame = 1;
  double SecondsPerTick() const { return static_cast<double>(frames_per_tick) / fps; }
  double HoldSeconds() const { return static_cast<double>(hold_frames) / fps; }
  // The distinct images of ticks 0..last_tick: ticks 0, k, 2k, ... and last_tick.
  Tick Images(Tick last_tick) const { return (last_tick + ticks_per_frame - 1) / ticks_per_frame + 1; }
  Tick ImageTick(Tick image, Tick last_tick) const { return std::min(image * ticks_per_frame, last_tick); }
  // Frames in the whole video for ticks 0..last_tick.
  long long TotalFrames(Tick last_tick) const { return poster_frames + Images(last_tick) * frames_per_tick + hold_frames; }
};

// Half a second per tick for short runs; longer runs speed up so that the
// animation takes about 12 seconds, down to one frame per tick; a run that
// would still play over 30 s shows several ticks a frame, about 12 s in all.
// The final frame is held for 5 seconds, and shown for 1 second before tick 0.
Pacing PaceFor(Tick last_tick, int fps);

}  // namespace ppsim::render

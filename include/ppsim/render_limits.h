// The ranges a picture's settings must lie in, in one place for every front
// end that checks them: a scene's [render] table (scene.cc), the CLI's flags
// and Python's keywords (render_scene.cc) and the layout itself. Standard
// library only, so that loading a scene needs no drawing library.
#pragma once

#include <string>

namespace ppsim {

// A frame's width and height, and the width it is viewed at, in pixels.
inline constexpr int kMinFramePx = 16;
inline constexpr int kMaxFramePx = 16384;
// Video frames per second.
inline constexpr int kMinFps = 1;
inline constexpr int kMaxFps = 240;

// "16..16384" and "1..240", for messages.
inline std::string FrameRangeText() { return std::to_string(kMinFramePx) + ".." + std::to_string(kMaxFramePx); }
inline std::string FpsRangeText() { return std::to_string(kMinFps) + ".." + std::to_string(kMaxFps); }

}  // namespace ppsim

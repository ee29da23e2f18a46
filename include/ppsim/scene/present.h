// Presenting a scene: its runs (simulated, claims checked) turned into what
// the renderer lays out — the step between running a scene and drawing it.
// Every word is filled from the runs (claim_template.h); the frame size,
// display width and gauge come from the scene's [render] table, else the
// renderer's defaults (1920x1080, the format's display width, one gauge per run).
#pragma once

#include <vector>

#include "ppsim/claims.h"
#include "ppsim/error.h"
#include "ppsim/render/layout.h"
#include "ppsim/scene/scene.h"

namespace ppsim::scene {

// REQUIRES: `runs` is SimulateScene(scene) (run i is scene.runs[i], whose
// caption template is filled) and outlives the result (its RunInputs point
// into them). Errors: a template that cannot be filled (a
// division by zero, ...), "FILE: title: ...", "FILE: run NAME: caption: ...",
// "FILE: closing line N: ...".
Result<render::LayoutInput> Present(const Scene& scene, const std::vector<Run>& runs);

}  // namespace ppsim::scene

// The Zero Bubble team's greedy generator for the controllable-memory V
// schedules (Qi et al., "Pipeline Parallelism with Controllable Memory",
// NeurIPS 2024; their zbv_greedy.py), shared by V-Half and V-Min.
//
// A schedule starts as a *pattern*: on device d, microbatch k's four passes
// sit in time slots pattern[d][t] + 6k, t = 0 F (chunk 0 forward), 1 f
// (chunk 1 forward), 2 B (chunk 1 input gradient), 3 b (chunk 0 input
// gradient); the two free slots of every period of six take the weight
// passes. The pattern fixes the memory: its worst device holds the fewest
// activations that the pattern allows. The generator then "squeezes" the
// pattern: it visits every op in slot order and moves it to the earliest
// free slot that its dependencies allow and that keeps the device within
// that memory, twice (first with W as ops, then with W filling idle slots),
// and finally lets each chunk's W fill the idle slots, chunk 1's first.
// The order this produces does not depend on costs: only slots are compared.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

// The greedy's size limits. Its squeeze re-counts a device's memory for each
// move it tries, so its time grows faster than the ops (P·M) — about 6 s
// of CPU at P = 256, M = 1024 — and it keeps every slot of every device in
// memory (docs/schedules.md gives the measured figures). Larger sizes are
// refused before allocating (exit 6).
inline constexpr int kMaxVShapeGreedyDevices = 256;
inline constexpr std::int64_t kMaxVShapeGreedyCells = std::int64_t{1} << 18;  // P·M

// kOk, or a kTooLarge Error naming `schedule` and the limit it exceeds.
Error CheckVShapeGreedySize(const Problem& p, const std::string& schedule);

// pattern[d] = slots of microbatch 0's F, f, B, b on device d (size P).
using VShapePattern = std::vector<std::array<int, 4>>;

// The order on a V-shape placement (device d: stages d and 2P-1-d), with
// the backward split into B (input gradient) and W.
// REQUIRES: p.placement == kVShape, p.v == 2, pattern.size() == P, the
// pattern's slots on a device distinct modulo 6 and each pass after its
// dependencies.
Schedule GreedyVShapeSchedule(const Problem& p, const VShapePattern& pattern);

}  // namespace ppsim

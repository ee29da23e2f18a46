// DualPipe's bubble (DeepSeek-V3): the largest idle time of one device over
// the makespan, (PP/2-1)(F&B+B-3W) for PP ranks. Shared by `dualpipe` (PP =
// P, P/2 pairs of mirrored ranks) and `dualpipev` (PP = 2P, P ranks of
// DualPipe folded onto P devices).
#pragma once

#include "ppsim/closed_forms.h"
#include "ppsim/problem.h"

namespace ppsim {

// The form with `pairs` = PP/2 and its text `formula`; an empty Prediction
// outside its range (tests/core/zoo_closed_forms_test.cc checks it there).
// REQUIRES: uniform F and B costs and no latency, as for every closed form.
Prediction PredictDualPipeIdle(const Problem& p, int pairs, const char* formula);

}  // namespace ppsim

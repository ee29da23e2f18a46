// A schedule read from a file — a PyTorch CSV (pytorch_csv.h) or ppsim's own
// text format (schedule_text.h) — together with the shape its ops imply:
// P = number of rows, S = highest stage + 1, v = S / P, M = highest
// microbatch + 1, the placement (loop or V-shape) from which device lists
// which stage, and a split backward iff any W (or PyTorch I) appears.
// Costs, comm and hold are left at their defaults for the caller to set.
#pragma once

#include <optional>

#include "ppsim/comm_model.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::io {

struct ImportedSchedule {
  Problem problem;    // P, M, v, placement inferred; costs etc. default
  Schedule schedule;  // complete: passed CheckComplete for `problem`
  // A PyTorch compute_comms file's own communication, in its order
  // (pytorch_program.h); simulated as it stands when comms are modelled.
  std::optional<CommProgram> comms;
};

}  // namespace ppsim::io

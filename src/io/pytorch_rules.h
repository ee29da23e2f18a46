// The order rules PyTorch's own _validate_schedule (schedules.py) applies to
// a pipeline_order, checked on a CSV's compute actions in PyTorch's order
// (rank by rank, step by step, an OVERLAP_F_B pair's two actions in turn):
// a full backward (B) or backward input (I) needs its stage's forward of
// the microbatch earlier, a backward weight (W) its backward input, and a
// stage runs on one rank. The counts PyTorch checks at the end (each stage
// M forwards and M backwards) are left to the completeness check, which
// names the op missing.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/io/pytorch_csv.h"

namespace ppsim::io {

// kBadSchedule naming FILE:row:col, the action, the rule in ppsim's words,
// and PyTorch's own message for it ("Rank 1, step 1: Running Full Backward
// for stage 1, microbatch 0 without first running Forward").
Error CheckPytorchRules(const PytorchCsv& csv, const std::string& source);

}  // namespace ppsim::io

// PyTorch's runtime order with communication, written as PyTorch writes it:
// its "compute_comms" CSV (_dump_csv(format="compute_comms")), one row per
// rank, one str(_Action) per cell ("0SEND_F3", "1RECV_B2", "0UNSHARD",
// "(0F7;7B3)OVERLAP_F_B"), rows ending in "\r\n" as Python's csv.writer.
//
// The lowering itself (UNSHARD/RESHARD, REDUCE_GRAD, SEND/RECV in
// _PipelineScheduleRuntime's _prepare_schedule_with_comms order, and where
// ppsim's eviction order differs from PyTorch's) is core's LowerPytorch
// (comm_lowering.h), the program `--comms pytorch` runs: io only writes it.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::io {

// `schedule` as PyTorch's runtime would hold it, as the compute_comms CSV.
// kPrecondition for DualPipe's two pipelines (as the compute-only CSV);
// kDeadlock when no rank can place its next action (LowerPytorch).
Result<std::string> WritePytorchCommsCsv(const Problem& problem, const Schedule& schedule);

}  // namespace ppsim::io

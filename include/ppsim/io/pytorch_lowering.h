// PyTorch's lowering of a compute-only schedule to the one its runtime runs
// (torch.distributed.pipelining, _PipelineScheduleRuntime's
// _prepare_schedule_with_comms, at the commit docs/formats.md names), done
// the same way so that ppsim's export and PyTorch's runtime hold the same
// per-rank action lists:
//   1. per rank, UNSHARD/RESHARD around the stages it computes (FSDP's
//      all-gather and free, at most 3 stages unsharded: max_active_stages);
//   2. per rank, REDUCE_GRAD of a stage right after its M-th B or W;
//   3. across ranks, SEND_F/SEND_B right after the compute that produces it
//      and the matching RECV appended to the receiver's list at that moment
//      (ranks visited in order, each placing its next action once its input
//      is received or local). No comm between stages on the same rank.
// The result as PyTorch's "compute_comms" CSV: one row per rank, one
// str(_Action) per cell ("0SEND_F3", "1RECV_B2", "0UNSHARD",
// "(0F7;7B3)OVERLAP_F_B"), rows ending in "\r\n" as Python's csv.writer.
//
// Where ppsim differs: PyTorch evicts a rank's unsharded stages in the
// iteration order of a Python set of ints; ppsim evicts in ascending stage
// order, which is that order whenever the stage indices are below the set's
// table size (8, or 16 once it has held 3 stages) — every schedule of up to 8
// stages per rank pair.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/schedule.h"

namespace ppsim::io {

// Steps 1–3 above on `compute` (per rank, cells of compute actions only: F,
// I, W, B, and overlapped pairs), with `stage_to_rank` and M microbatches.
// kDeadlock when no rank can place its next action (PyTorch's "Malformed
// compute schedule"), naming each rank's waiting action.
Result<PytorchCsv> LowerWithComms(const PytorchCsv& compute, const std::vector<int>& stage_to_rank, int microbatches);

// `schedule` as PyTorch's runtime would hold it, as the compute_comms CSV.
// kPrecondition for DualPipe's two pipelines (as the compute-only CSV).
Result<std::string> WritePytorchCommsCsv(const Problem& problem, const Schedule& schedule);

}  // namespace ppsim::io

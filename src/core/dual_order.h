// The per-rank order shared by DualPipe and DualPipeV (DeepSeek). Both run
// the same eight steps on each rank with two "phases" (chunks): phase 0 is
// the chunk whose microbatches enter the pipeline nearest this rank, phase 1
// the other one. DualPipeV folds them into one V of n ranks; DualPipe runs
// two mirrored copies, rank r and rank 2n-1-r behaving as V-rank min(r, 2n-1-r).
#pragma once

#include <vector>

#include "schedule_builder.h"

namespace ppsim {

struct DualAction {
  enum Kind {
    kF,        // forward of (phase, microbatch)
    kB,        // full backward (input and weight gradient at once)
    kBInput,   // input-gradient pass; its W is queued
    kW,        // weight-gradient pass of (phase, microbatch): the oldest queued
    kPair,     // forward of (phase, microbatch) overlapped with the full
               // backward of (phase2, microbatch2)
  };
  Kind kind = kF;
  int phase = 0;
  int microbatch = 0;
  int phase2 = 0;
  int microbatch2 = 0;
};

// REQUIRES: 0 ≤ rank < ranks, chunks ≥ 2·ranks (chunks = microbatches per
// phase for DualPipeV's whole V, per direction for DualPipe).
std::vector<DualAction> DualRankOrder(int ranks, int rank, int chunks);

// How one device runs the eight steps: as V-rank `rank` of `ranks` with
// `chunks` microbatches per phase, phase p on stage[p] with its microbatches
// numbered from first[p].
struct DualRank {
  int ranks = 0, rank = 0, chunks = 0;
  int stage[2] = {0, 0};
  int first[2] = {0, 0};
};
// DualPipeV: one V over P devices, device d is V-rank d (stages d, 2P-1-d).
DualRank DualPipeVRank(const Problem& p, int device);
// DualPipe: two mirrored copies; device d is V-rank min(d, P-1-d) of P/2,
// phase 0 the copy that enters the pipeline at its own end (REQUIRES: even P, M).
DualRank DualPipeRank(const Problem& p, int device);

// Appends `order` to a device queue; phase p runs on `stage[p]` with
// microbatch numbers shifted by `first_microbatch[p]`. kB is one full
// backward op (Slot::full: costs B+W, no W); kBInput is ppsim's B and kW its
// W; kPair is the compound F&B op whose backward is full — or, without
// `overlap` (the model has no overlapped_forward_backward), its F and then
// its full B as two ops.
void AppendDualOrder(const std::vector<DualAction>& order, const int stage[2], const int first_microbatch[2],
                     bool overlap, QueueBuilder& q);

}  // namespace ppsim

// Megatron-LM's other way to split a model: the flags
// --decoder-first-pipeline-num-layers, --decoder-last-pipeline-num-layers,
// --account-for-embedding-in-pipeline-split and
// --account-for-loss-in-pipeline-split, with --num-layers, P and
// --num-virtual-stages-per-pipeline-rank. MegatronFlagStages gives the
// decoder layers of each (pp rank, vp stage) as Megatron computes them
// (transformer_block.py get_num_layers_to_build, with the checks of
// TransformerConfig and validate_args), as stage strings a Layout reads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim {

struct MegatronSplitFlags {
  int num_layers = 1;                              // --num-layers: decoder layers, ≥ 1
  int P = 1;                                       // --pipeline-model-parallel-size, ≥ 1
  int chunks = 1;                                  // --num-virtual-stages-per-pipeline-rank; 1 = no interleaving
  std::optional<int> first_layers = std::nullopt;  // --decoder-first-pipeline-num-layers (all of rank 0's)
  std::optional<int> last_layers = std::nullopt;   // --decoder-last-pipeline-num-layers (all of rank P−1's)
  bool account_for_embedding = false;              // the embedding counts as one layer of (0, 0)
  bool account_for_loss = false;                   // the loss counts as one layer of (P−1, v−1)
  int mtp_layers = 0;                              // --mtp-num-layers: with the loss, in the last stage
};

// The stages in virtual-stage order (vp·P + pp), each its letters as a
// layout string writes them: E first in stage 0, the decoder layers, then
// the MTP layers and L in the last stage ("Ett", "tt", "ttmL"). Or the
// first check Megatron fails, in its words, as one line naming the flag
// by Megatron's name for it (field "decoder_first_pipeline_num_layers",
// "decoder_last_pipeline_num_layers", "num_layers", "chunks", "P"):
// kInvalidValue for a value out of range, kPrecondition for a split Megatron
// refuses (layers not divisible among the ranks, flags that exclude each
// other).
Result<std::vector<std::string>> MegatronFlagStages(const MegatronSplitFlags& flags);

// The decoder layers of each stage of MegatronFlagStages.
Result<std::vector<int>> MegatronDecoderCounts(const MegatronSplitFlags& flags);

}  // namespace ppsim

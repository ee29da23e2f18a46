// A model split into pipeline stages, read from Megatron-LM's
// --pipeline-model-parallel-layout string exactly as Megatron's own parser
// (megatron/core/transformer/pipeline_parallel_layer_layout.py) and its
// validation read it: `E` embedding, `t` decoder layer, `m` MTP layer, `L`
// loss, `|` a stage break, `X*n` and `(...)*n` repeats, `,` ignored. The
// i-th `|`-separated stage is virtual stage i: pp rank i mod P, vp stage
// i div P. Decoder (and MTP) layer ids are numbered in virtual-stage order.
// Megatron builds the embedding on (pp 0, vp 0) and the loss on (P−1, v−1)
// whatever the string says (E and L are only validated); a Layout records
// both and warns where they differ. docs/layouts.md has the grammar.
//
// Invariant of a Layout: stages.size() == P·v, stages[i] is virtual stage i,
// and the ids in decoder_layer_ids over all stages are 0..num_layers−1 once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"

namespace ppsim {

// Longest expanded layout (layers plus `|`) ppsim reads: a repeat that asks
// for more is refused (kTooLarge) before anything that size is built.
inline constexpr long long kMaxLayoutLength = 1 << 20;

// One `|`-separated stage after Megatron's expansion (parse_str_to_list):
// its letters in order, and the 1-based column in the original string each
// letter came from (a repeated letter keeps its one column).
struct ExpandedStage {
  std::string layers;        // "Ett"; "" = an empty stage
  std::vector<int> columns;  // one per letter
  int column = 1;            // where the stage starts: 1, or one past the `|` before it
};

// Megatron's parse_str_to_list: drops every `,`, unrolls `(...)*n` then
// `X*n` (one left-to-right pass each, as its two re.sub calls do), splits
// at `|` and refuses any other letter than E, t, m, L (kParse, at the
// letter's column). Returns the stages, at least one.
Result<std::vector<ExpandedStage>> ExpandLayout(std::string_view text);

// One (pp rank, vp stage) of a layout.
struct LayoutStage {
  int pp_rank = 0;
  int vp_stage = 0;
  int virtual_stage = 0;               // vp_stage·P + pp_rank
  std::string layers;                  // as the string writes them ("Et")
  std::vector<int> columns;            // 1-based column of each letter
  int column = 1;                      // where the stage starts in the string
  std::vector<int> decoder_layer_ids;  // Megatron's get_layer_id_list(decoder)
  std::vector<int> mtp_layer_ids;      // the same for MTP layers
  bool builds_embedding = false;       // Megatron builds the embedding here: (0, 0)
  bool builds_loss = false;            // and the loss here: (P−1, v−1)
};

struct Layout {
  int P = 1;
  int v = 1;           // virtual stages per rank: stages / P
  int num_layers = 0;  // decoder layers
  int mtp_layers = 0;
  std::vector<LayoutStage> stages;    // in virtual-stage order
  std::vector<std::string> warnings;  // where the string and Megatron's placement disagree

  // REQUIRES: 0 ≤ pp < P, 0 ≤ vp < v.
  const LayoutStage& At(int pp, int vp) const { return stages[static_cast<size_t>(vp) * P + pp]; }
};

struct LayoutOptions {
  int P = 1;            // pipeline_model_parallel_size, ≥ 1
  int chunks = 0;       // virtual stages per rank; 0 = whatever the string has (stages / P)
  int num_layers = -1;  // --num-layers; -1 = the string's count of `t`
  int mtp_layers = -1;  // --mtp-num-layers; -1 = the string's count of `m`
};

// The layout `text` as Megatron reads it for `options`, or the first
// rejection Megatron makes, in Megatron's order, as one line placed at the
// column it concerns ("layout (column 1): the first layer must be the
// embedding E, got t"): a stage count that is not a multiple of P, or not
// P·chunks (kInvalidValue); E not first or twice, L not last or twice, a
// layer count other than num_layers or mtp_layers (kInvalidValue); a decoder
// layer after an MTP layer, MTP layers outside one rank's last virtual
// stage (kPrecondition); plus ExpandLayout's errors.
Result<Layout> ReadLayout(std::string_view text, const LayoutOptions& options);

// The stages written back as one layout string Megatron reads as the same
// stages: letters run-length coded (`t*3`), equal neighbouring stages
// grouped (`(tt|)*29,`). REQUIRES: at least one stage.
std::string WriteLayoutString(const std::vector<std::string>& stages);

// The layout's stages as Megatron builds them, in virtual-stage order: the
// decoder and MTP letters where the string puts them, E moved to the front
// of stage 0 and L to the end of the last stage. WriteLayoutString of this
// is the canonical string for the split.
std::vector<std::string> BuiltStages(const Layout& layout);

// torchtitan's `parallelism.module_fqns_per_model_part` for the layout, one
// list per virtual stage (torchtitan/distributed/pipeline_parallel.py's
// names: tok_embeddings, layers.<id>, norm, lm_head). torchtitan refuses
// pipeline parallelism with MTP layers (models/deepseek_v3/MTP.md), and a
// model part with no parameters (its optimizer finds none to hold): a
// layout with `m`, or with a stage that holds no layer, gets an Error
// (kPrecondition) saying so, naming the first empty stage. A stage holding
// only the embedding or the loss head has parameters and is listed.
Result<std::vector<std::vector<std::string>>> TorchtitanModules(const Layout& layout);

}  // namespace ppsim

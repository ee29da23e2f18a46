// Megatron's per-stage decoder layer counts from its split flags: the checks
// of validate_args and TransformerConfig.__post_init__, then
// get_num_layers_to_build, in that order.
#include "ppsim/layout_flags.h"

#include <string>
#include <vector>

namespace ppsim {
namespace {

Error Refuse(std::string field, std::string what) {
  return Error::Field(ErrorCode::kPrecondition, std::move(field), std::move(what));
}

Error CheckRanges(const MegatronSplitFlags& f) {
  auto below = [](const char* field, long long value, long long min) {
    return Error::Field(ErrorCode::kInvalidValue, field,
                        " must be ≥ " + std::to_string(min) + ", got " + std::to_string(value));
  };
  if (f.num_layers < 1) return below("num_layers", f.num_layers, 1);
  if (f.P < 1) return below("P", f.P, 1);
  if (f.chunks < 1) return below("chunks", f.chunks, 1);
  if (f.mtp_layers < 0) return below("mtp_layers", f.mtp_layers, 0);
  if (f.chunks > 1 && f.P == 1)
    return Refuse("chunks",
                  " = " + std::to_string(f.chunks) + " needs P ≥ 2: Megatron interleaves only over several ranks");
  return Error::Ok();
}

// Each rank's decoder layers with --decoder-first/last-pipeline-num-layers.
Result<std::vector<int>> UnevenRanks(const MegatronSplitFlags& f) {
  const int v = f.chunks;
  int middle_layers = f.num_layers, middle_ranks = f.P;
  for (const auto& [given, field] : {std::pair{f.first_layers, "decoder_first_pipeline_num_layers"},
                                     std::pair{f.last_layers, "decoder_last_pipeline_num_layers"}}) {
    if (!given) continue;
    if (*given < 1)  // TransformerConfig: "num_layers_in_first_pipeline_stage must be larger than 0"
      return Error::Field(ErrorCode::kInvalidValue, field, " must be ≥ 1, got " + std::to_string(*given));
    if (*given % v != 0)
      return Refuse(field, " = " + std::to_string(*given) + " is not divisible by the " + std::to_string(v) +
                               " virtual stages per rank");
    middle_layers -= *given;
    --middle_ranks;
  }
  // Megatron would go on with a negative count here and build nothing.
  if (middle_ranks < 0 || middle_layers < 0)
    return Refuse("num_layers", ": first and last layers (" + std::to_string(f.num_layers - middle_layers) +
                                    ") exceed num_layers " + std::to_string(f.num_layers) +
                                    " or the P = " + std::to_string(f.P) + " ranks");
  if ((middle_layers != 0) != (middle_ranks != 0))
    return Refuse("num_layers", ": " + std::to_string(middle_layers) + " middle layers remain for " +
                                    std::to_string(middle_ranks) + " middle ranks");
  if (middle_ranks > 0 && middle_layers % middle_ranks != 0)
    return Refuse("num_layers", ": the " + std::to_string(middle_layers) + " middle layers are not divisible by the " +
                                    std::to_string(middle_ranks) + " middle ranks");
  const int per_middle = middle_ranks > 0 ? middle_layers / middle_ranks : 0;
  if (middle_ranks > 0 && v > 1 && per_middle % v != 0)
    return Refuse("num_layers", ": " + std::to_string(per_middle) +
                                    " layers on each middle rank are not divisible by the " + std::to_string(v) +
                                    " virtual stages per rank");
  // get_transformer_layer_offset divides by the middle ranks when interleaving.
  if (v > 1 && middle_ranks == 0 && f.P > 1)
    return Refuse("chunks",
                  ": with both first and last layers given and no middle rank, Megatron's layer offset "
                  "divides by zero when interleaving");
  std::vector<int> ranks(f.P, per_middle);
  if (f.first_layers) ranks.front() = *f.first_layers;
  if (f.last_layers) ranks.back() = *f.last_layers;
  return ranks;
}

// Each rank's share of num_layers (+1 for each accounted embedding or loss).
Result<std::vector<int>> EvenRanks(const MegatronSplitFlags& f) {
  const int total = f.num_layers + (f.account_for_embedding ? 1 : 0) + (f.account_for_loss ? 1 : 0);
  const std::string what = f.account_for_embedding || f.account_for_loss ? " (with the embedding or loss counted)" : "";
  if (total % f.P != 0)
    return Refuse("num_layers",
                  ": " + std::to_string(total) + " layers" + what + " are not divisible by P = " + std::to_string(f.P));
  if ((total / f.P) % f.chunks != 0)
    return Refuse("num_layers", ": " + std::to_string(total / f.P) + " layers per rank" + what +
                                    " are not divisible by the " + std::to_string(f.chunks) +
                                    " virtual stages per rank");
  return std::vector<int>(f.P, total / f.P);
}

}  // namespace

Result<std::vector<int>> MegatronDecoderCounts(const MegatronSplitFlags& f) {
  if (Error e = CheckRanges(f); !e.ok()) return e;
  const bool uneven = f.first_layers || f.last_layers;
  if (uneven && (f.account_for_embedding || f.account_for_loss))
    return Refuse(f.first_layers ? "decoder_first_pipeline_num_layers" : "decoder_last_pipeline_num_layers",
                  " cannot be given with account_for_embedding_in_pipeline_split or "
                  "account_for_loss_in_pipeline_split (Megatron's TransformerConfig)");
  Result<std::vector<int>> ranks = uneven ? UnevenRanks(f) : EvenRanks(f);
  if (!ranks) return ranks.error();
  std::vector<int> counts(static_cast<size_t>(f.P) * f.chunks);
  for (int vp = 0; vp < f.chunks; ++vp)
    for (int pp = 0; pp < f.P; ++pp) counts[static_cast<size_t>(vp) * f.P + pp] = (*ranks)[pp] / f.chunks;
  if (f.account_for_embedding && --counts.front() < 0)
    return Refuse("num_layers", ": not enough layers in the first virtual stage for the embedding");
  if (f.account_for_loss && --counts.back() < 0)
    return Refuse("num_layers", ": not enough layers in the last virtual stage for the loss");
  return counts;
}

Result<std::vector<std::string>> MegatronFlagStages(const MegatronSplitFlags& f) {
  Result<std::vector<int>> counts = MegatronDecoderCounts(f);
  if (!counts) return counts.error();
  std::vector<std::string> stages;
  for (int n : *counts) stages.push_back(std::string(n, 't'));
  stages.front().insert(0, "E");
  stages.back() += std::string(f.mtp_layers, 'm') + "L";
  return stages;
}

}  // namespace ppsim

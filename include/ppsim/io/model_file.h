// Model files (docs/costs.md, "Models and layouts"): a model's layers in
// order, in TOML, for `--model` with `--layout`.
//
//   name = "llama-like"          # optional
//   [[layer]]
//   kind = "embedding"           # embedding, decoder, mtp or loss
//   F = 1                        # ticks per microbatch, ≥ 0 (also B, W)
//   B = 1
//   param_bytes = 1048576        # optional, ≥ 0 (also activation_bytes)
//   [[layer]]
//   kind = "decoder"
//   name = "dense"               # optional label
//   repeat = 32                  # this layer, 32 times in a row (default 1)
//   F = 4
//   B = 4
//   W = 4
//   activation_bytes = 268435456
//
// Errors have file:line:col: kParse for syntax, kUnknownName for an unknown
// key or kind, kInvalidValue for a wrong type or a value out of range,
// kTooLarge past a limit.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/error.h"
#include "ppsim/layout_costs.h"

namespace ppsim::io {

// Most layers a model file may unroll to (repeats included).
inline constexpr long long kMaxModelLayers = 1 << 20;

Result<Model> ReadModelFile(const std::string& path);
Result<Model> ParseModelText(std::string_view text, const std::string& source);

// Sets `problem` to the model at `model_path` split by the Megatron layout
// string `layout` over problem.P ranks (ReadLayout, SumStageCosts,
// ApplyStageCosts): v from the layout (which must equal problem.v when
// `chunks_given`), per-stage op costs, bytes. The layout must hold as many
// decoder and MTP layers as the model. Both are required (kUsage naming
// the missing one), and each one's errors are its own.
Error ApplyModelLayout(const std::string& model_path, const std::string& layout, bool chunks_given, Problem& problem);

// kOk iff the registry schedule `schedule` can run a Megatron layout, which
// puts stage i on rank i mod P: a schedule with another placement is
// kPrecondition naming "layout". An unknown name is left to the generator.
Error LayoutRunsSchedule(const std::string& schedule);

// kOk iff the placement `spec` (ppsim/placement_spec.h) is where `placed`
// put every stage: a registry schedule is defined for its own placement,
// and a schedule file for its own map. kPrecondition naming "placement"
// and the first stage that differs otherwise; ParsePlacement's errors.
Error PlacementAgrees(const std::string& spec, const std::string& schedule, const Problem& placed);

}  // namespace ppsim::io

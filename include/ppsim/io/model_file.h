// Model files (docs/costs.md, "Models and layouts"): a model's layers in
// order, in TOML (or its JSON twin, below), for `--model` with `--layout`.
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

// A path ending in .json is read as the JSON twin (ParseModelJson), any
// other as TOML.
Result<Model> ReadModelFile(const std::string& path);
Result<Model> ParseModelText(std::string_view text, const std::string& source);

// The JSON twin, for Python (a dict) and `--model x.json`: the same keys and
// meaning, {"name": ..., "recompute": [...], "bytes_per_param": {...},
// "layer": [{"kind": "decoder", "repeat": 32, "F": 4, ...}, ...]}. A
// duplicate key counts once, its last value (as Python's json reads it).
// Errors: kParse at source:line:col for syntax; otherwise "source: PATH
// message", PATH the value's JSON path ("layer[3].F", "recompute[0]",
// "bytes_per_param.grad"), with the TOML's codes.
Result<Model> ParseModelJson(std::string_view text, const std::string& source);

// The model a front end names: `json` when not empty (the JSON twin given as
// text, Python's dict, placed as "model" in errors), else the file `path`.
Result<Model> ReadModel(const std::string& path, const std::string& json);

// Sets `problem` to the model at `model_path` (or given as JSON text,
// `model_json`, ReadModel) split by the Megatron layout
// string `layout` over problem.P ranks (ReadLayout, SumStageCosts,
// ApplyStageCosts): v from the layout (which must equal problem.v when
// `chunks_given`), per-stage op costs, bytes. The layout must hold as many
// decoder and MTP layers as the model. Both are required (kUsage naming
// the missing one), and each one's errors are its own.
Error ApplyModelLayout(const std::string& model_path, const std::string& layout, bool chunks_given, Problem& problem,
                       const std::string& model_json = "");

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

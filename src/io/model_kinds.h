// What a model file's two spellings share (model_file.h): the TOML reader
// (model_file.cc) and its JSON twin (model_json.cc) name the same layer
// kinds and keys, and apply a `recompute` entry the same way.
#pragma once

#include <string>
#include <string_view>

#include "ppsim/layout_costs.h"

namespace ppsim::io::model_keys {

// "embedding" → 'E', "decoder" → 't', "mtp" → 'm', "loss" → 'L'; 0 otherwise.
inline char KindLetter(std::string_view kind) {
  if (kind == "embedding") return 'E';
  if (kind == "decoder") return 't';
  if (kind == "mtp") return 'm';
  if (kind == "loss") return 'L';
  return 0;
}

inline constexpr const char* kLayerKeys =
    "kind, name, repeat, F, B, W, activation_bytes, checkpoint_bytes, param_bytes";
inline constexpr const char* kKinds = "embedding, decoder, mtp, loss";

// Marks the layers of kind `what`, or named `what`, recomputed; false when
// there is none.
inline bool MarkRecompute(const std::string& what, Model& model) {
  const char kind = KindLetter(what);
  bool any = false;
  for (ModelLayer& l : model.layers)
    if (l.kind == kind || (!l.name.empty() && l.name == what)) any = l.recompute = true;
  return any;
}

}  // namespace ppsim::io::model_keys

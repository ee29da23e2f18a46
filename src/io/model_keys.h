// The rules of a model file's keys (model_file.h, docs/costs.md), shared by
// its two spellings: the TOML reader (model_file.cc) and its JSON twin
// (model_json.cc) turn each value into a Value and apply the same rule to
// it, so a key means the same thing, takes the same range and fails with the
// same message in both. A reader only says where: the TOML names the key
// and places the error at file:line:col, the JSON names the value's path
// ("layer[3].F") after the source. Adding a layer key is a row of
// kLayerKeys (model_keys.cc).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ppsim/error.h"
#include "ppsim/layout_costs.h"
#include "ppsim/memory_model.h"

namespace ppsim::io::model_keys {

// A value as a reader found it: a whole number, a string, or anything else
// (a float, a bool, a table...), which every rule here refuses by type.
struct Value {
  enum class Type { kOther, kInteger, kString };
  Type type = Type::kOther;
  std::int64_t integer = 0;  // kInteger
  std::uint64_t above = 0;   // kInteger past INT64_MAX (JSON can say it): the value; 0 = none
  std::string text;          // kString
};

// "embedding" → 'E', "decoder" → 't', "mtp" → 'm', "loss" → 'L'; 0 otherwise.
char KindLetter(std::string_view kind);

inline constexpr const char* kKinds = "embedding, decoder, mtp, loss";
inline constexpr const char* kBytesPerParamKeys = "weight, grad, optimizer";

// One layer table/object as it is read: its keys set one at a time, then
// appended `repeat` times.
struct LayerDraft {
  ModelLayer layer;
  std::int64_t repeat = 1;
  bool has_kind = false;
};

// Every layer key in the order the "known:" list names them
// ("kind, name, repeat, F, B, W, activation_bytes, checkpoint_bytes, param_bytes").
const std::string& LayerKeyList();
bool IsLayerKey(std::string_view key);

// Sets the layer key `key` (REQUIRES: IsLayerKey) from `v`, or the error
// naming `field` (kInvalidValue for a wrong type or below the range,
// kUnknownName for an unknown kind, kTooLarge past the limit).
Error SetLayerKey(std::string_view key, const Value& v, const std::string& field, LayerDraft& draft);

// Appends the draft `repeat` times. kInvalidValue naming `at` when it has
// no kind; kTooLarge naming `repeat_field` past kMaxModelLayers in all.
Error AppendLayer(const LayerDraft& draft, const std::string& at, const std::string& repeat_field, Model& model);

// `[bytes_per_param]`'s `key` = `v`, named "bytes_per_param.<key>": weight
// in [1, 64], grad and optimizer in [0, 64]. kUnknownName for another key.
Error SetBytesPerParam(std::string_view key, const Value& v, BytesPerParam& per);

// One entry of `recompute` (a layer kind or a layer's name, named `field`):
// marks those layers recomputed; kUnknownName when none is.
Error Recompute(const Value& item, const std::string& field, Model& model);
Error RecomputeNotAList();  // `recompute` itself is not a list

// The top-level `name`: a string, else kInvalidValue.
Error ModelName(const Value& v);

// "unknown key 'x' (known: ...)", after "`owner`: " when there is one.
Error UnknownKey(const std::string& owner, std::string_view key, std::string_view known);

// A model without layers, `field` naming where they belong.
Error NoLayers(const std::string& field);

}  // namespace ppsim::io::model_keys

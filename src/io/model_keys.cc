#include "model_keys.h"

#include <string>

#include "ppsim/io/model_file.h"
#include "ppsim/problem.h"

namespace ppsim::io::model_keys {
namespace {

// A whole number in [min, max], named `field`.
Error WholeNumber(const Value& v, const std::string& field, long long min, long long max, std::int64_t& out) {
  if (v.type != Value::Type::kInteger)
    return Error::Field(ErrorCode::kInvalidValue, field, ": expected a whole number");
  const auto too_large = [&](const std::string& shown) {
    return Error::Field(ErrorCode::kTooLarge, field, ": " + shown + " exceeds the limit " + std::to_string(max));
  };
  if (v.above != 0) return too_large(std::to_string(v.above));
  if (v.integer < min)
    return Error::Field(ErrorCode::kInvalidValue, field,
                        " must be ≥ " + std::to_string(min) + ", got " + std::to_string(v.integer));
  if (v.integer > max) return too_large(std::to_string(v.integer));
  out = v.integer;
  return Error::Ok();
}

// One row per layer key: a whole number in [min, max] stored at slot(draft),
// or (slot null) a rule of its own in SetLayerKey.
struct LayerKey {
  std::string_view name;
  long long min, max;
  std::int64_t* (*slot)(LayerDraft&);
};

constexpr LayerKey kLayerKeys[] = {
    {"kind", 0, 0, nullptr},
    {"name", 0, 0, nullptr},
    {"repeat", 1, kMaxModelLayers, [](LayerDraft& d) { return &d.repeat; }},
    {"F", 0, kMaxCost, [](LayerDraft& d) { return &d.layer.f; }},
    {"B", 0, kMaxCost, [](LayerDraft& d) { return &d.layer.b; }},
    {"W", 0, kMaxCost, [](LayerDraft& d) { return &d.layer.w; }},
    {"activation_bytes", 0, kMaxBytes, [](LayerDraft& d) { return &d.layer.activation_bytes; }},
    {"checkpoint_bytes", 0, kMaxBytes, [](LayerDraft& d) { return &d.layer.checkpoint_bytes; }},
    {"param_bytes", 0, kMaxBytes, [](LayerDraft& d) { return &d.layer.param_bytes; }},
};

const LayerKey* FindLayerKey(std::string_view key) {
  for (const LayerKey& k : kLayerKeys)
    if (k.name == key) return &k;
  return nullptr;
}

}  // namespace

char KindLetter(std::string_view kind) {
  if (kind == "embedding") return 'E';
  if (kind == "decoder") return 't';
  if (kind == "mtp") return 'm';
  if (kind == "loss") return 'L';
  return 0;
}

const std::string& LayerKeyList() {
  static const std::string list = [] {
    std::string s;
    for (const LayerKey& k : kLayerKeys) s += (s.empty() ? "" : ", ") + std::string(k.name);
    return s;
  }();
  return list;
}

bool IsLayerKey(std::string_view key) { return FindLayerKey(key) != nullptr; }

Error SetLayerKey(std::string_view key, const Value& v, const std::string& field, LayerDraft& draft) {
  const LayerKey* k = FindLayerKey(key);
  if (k->slot != nullptr) return WholeNumber(v, field, k->min, k->max, *k->slot(draft));
  const bool is_string = v.type == Value::Type::kString;
  if (key == "name") {
    if (!is_string) return Error::Field(ErrorCode::kInvalidValue, field, ": expected a string");
    draft.layer.name = v.text;
    return Error::Ok();
  }
  draft.layer.kind = is_string ? KindLetter(v.text) : 0;  // "kind"
  if (draft.layer.kind == 0)
    return Error::Field(ErrorCode::kUnknownName, field,
                        ": " + (is_string ? "'" + v.text + "'" : std::string("a non-string")) +
                            " is not a layer kind (" + kKinds + ")");
  draft.has_kind = true;
  return Error::Ok();
}

Error AppendLayer(const LayerDraft& draft, const std::string& at, const std::string& repeat_field, Model& model) {
  if (!draft.has_kind) return Error::Field(ErrorCode::kInvalidValue, at, ": no kind (" + std::string(kKinds) + ")");
  if (static_cast<long long>(model.layers.size()) + draft.repeat > kMaxModelLayers)
    return Error::Field(ErrorCode::kTooLarge, repeat_field,
                        ": more than " + std::to_string(kMaxModelLayers) + " layers in all");
  model.layers.insert(model.layers.end(), static_cast<size_t>(draft.repeat), draft.layer);
  return Error::Ok();
}

Error SetBytesPerParam(std::string_view key, const Value& v, BytesPerParam& per) {
  int* field = key == "weight"      ? &per.weight
               : key == "grad"      ? &per.grad
               : key == "optimizer" ? &per.optimizer
                                    : nullptr;
  if (field == nullptr) return UnknownKey("bytes_per_param", key, kBytesPerParamKeys);
  std::int64_t n = 0;
  if (Error e = WholeNumber(v, "bytes_per_param." + std::string(key), key == "weight" ? 1 : 0, 64, n); !e.ok())
    return e;
  *field = static_cast<int>(n);
  return Error::Ok();
}

Error Recompute(const Value& item, const std::string& field, Model& model) {
  if (item.type != Value::Type::kString)
    return Error::Field(ErrorCode::kInvalidValue, field, ": expected a layer kind or name (a string)");
  const char kind = KindLetter(item.text);
  bool any = false;
  for (ModelLayer& l : model.layers)
    if (l.kind == kind || (!l.name.empty() && l.name == item.text)) any = l.recompute = true;
  if (any) return Error::Ok();
  return Error::Field(
      ErrorCode::kUnknownName, field,
      ": '" + item.text + "' is neither a layer kind (" + kKinds + ") nor the name of a layer of this model");
}

Error RecomputeNotAList() {
  return Error::Field(ErrorCode::kInvalidValue, "recompute", ": expected a list of layer kinds or names");
}

Error ModelName(const Value& v) {
  if (v.type == Value::Type::kString) return Error::Ok();
  return Error::Field(ErrorCode::kInvalidValue, "name", ": expected a string");
}

Error UnknownKey(const std::string& owner, std::string_view key, std::string_view known) {
  const std::string what = "unknown key '" + std::string(key) + "' (known: " + std::string(known) + ")";
  if (owner.empty()) return Fail(ErrorCode::kUnknownName, what);
  return Error::Field(ErrorCode::kUnknownName, owner, ": " + what);
}

Error NoLayers(const std::string& field) {
  return Error::Field(ErrorCode::kInvalidValue, field, ": a model has at least one layer");
}

}  // namespace ppsim::io::model_keys

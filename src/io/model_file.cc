#include "ppsim/io/model_file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <string>

#include "ppsim/generators.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/layout.h"
#include "ppsim/placement_spec.h"
#include "ppsim/memory_model.h"
#include "model_keys.h"

namespace ppsim::io {
namespace {

Error At(Error e, const std::string& source, const toml::source_region& region) {
  return e.At(source, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column));
}

namespace keys = model_keys;

// The value at `node` as the shared rules see it.
keys::Value ValueOf(const toml::node& node) {
  keys::Value v;
  if (const auto* i = node.as_integer()) {
    v.type = keys::Value::Type::kInteger;
    v.integer = i->get();
  } else if (const auto* s = node.as_string()) {
    v.type = keys::Value::Type::kString;
    v.text = s->get();
  }
  return v;
}

// One [[layer]] table, appended `repeat` times. A key's error is placed at
// its value, an unknown key at the key.
Error ReadLayer(const toml::table& t, const toml::node& where, const std::string& source, Model& model) {
  keys::LayerDraft draft;
  for (const auto& [k, node] : t) {
    const std::string key(k.str());
    if (!keys::IsLayerKey(key)) return At(keys::UnknownKey("", key, keys::LayerKeyList()), source, k.source());
    if (Error e = keys::SetLayerKey(key, ValueOf(node), key, draft); !e.ok()) return At(e, source, node.source());
  }
  return At(keys::AppendLayer(draft, "layer", "repeat", model), source, where.source());
}

// The [bytes_per_param] table: weight (≥ 1), grad and optimizer bytes.
Error ReadBytesPerParam(const toml::node& node, const std::string& source, BytesPerParam& per) {
  const toml::table* t = node.as_table();
  if (t == nullptr)
    return At(Fail(ErrorCode::kInvalidValue, "bytes_per_param: expected a table ([bytes_per_param])"), source,
              node.source());
  for (const auto& [k, value] : *t) {
    Error e = keys::SetBytesPerParam(k.str(), ValueOf(value), per);
    if (!e.ok()) return At(e, source, e.code == ErrorCode::kUnknownName ? k.source() : value.source());
  }
  return Error::Ok();
}

// `recompute = ["decoder", "moe"]`: each a layer kind or a layer's name;
// those layers are recomputed.
Error ReadRecompute(const toml::node& node, const std::string& source, Model& model) {
  const toml::array* list = node.as_array();
  if (list == nullptr) return At(keys::RecomputeNotAList(), source, node.source());
  for (const toml::node& item : *list)
    if (Error e = keys::Recompute(ValueOf(item), "recompute", model); !e.ok()) return At(e, source, item.source());
  return Error::Ok();
}

}  // namespace

Result<Model> ParseModelText(std::string_view text, const std::string& source) {
  toml::table doc;
  try {
    doc = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return At(Fail(ErrorCode::kParse, std::string(e.description())), source, e.source());
  }
  Model model;
  const toml::node* recompute = nullptr;  // read once every layer is known
  for (const auto& [k, node] : doc) {
    const std::string key(k.str());
    if (key == "name") {
      if (Error e = keys::ModelName(ValueOf(node)); !e.ok()) return At(e, source, node.source());
      continue;
    }
    if (key == "recompute") {
      recompute = &node;
      continue;
    }
    if (key == "bytes_per_param") {
      if (Error e = ReadBytesPerParam(node, source, model.bytes_per_param); !e.ok()) return e;
      continue;
    }
    if (key != "layer")
      return At(keys::UnknownKey("", key, "name, recompute, [bytes_per_param], [[layer]]"), source, k.source());
    const toml::array* layers = node.as_array();
    if (layers == nullptr)
      return At(Fail(ErrorCode::kInvalidValue, "layer: expected tables ([[layer]])"), source, node.source());
    for (const toml::node& l : *layers) {
      const toml::table* t = l.as_table();
      if (t == nullptr)
        return At(Fail(ErrorCode::kInvalidValue, "layer: expected a table ([[layer]])"), source, l.source());
      if (Error e = ReadLayer(*t, l, source, model); !e.ok()) return e;
    }
  }
  if (model.layers.empty())
    return keys::NoLayers("no [[layer]]").At(source, 1, 1);
  if (recompute != nullptr)
    if (Error e = ReadRecompute(*recompute, source, model); !e.ok()) return e;
  return model;
}

Result<Model> ReadModelFile(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text) return Error::Field(text.error().code, "model", ": " + text.error().Text());
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) return ParseModelJson(*text, path);
  return ParseModelText(*text, path);
}

Result<Model> ReadModel(const std::string& path, const std::string& json) {
  return json.empty() ? ReadModelFile(path) : ParseModelJson(json, "model");
}

Error ApplyModelLayout(const std::string& model_path, const std::string& layout, bool chunks_given, Problem& p,
                       const std::string& model_json) {
  if (model_path.empty() && model_json.empty())
    return Error::Field(ErrorCode::kUsage, "layout", " needs a model: the layers it splits (docs/costs.md)");
  if (layout.empty())
    return Error::Field(ErrorCode::kUsage, "model",
                        " needs a layout: how its layers split into stages (docs/layouts.md)");
  Result<Model> model = ReadModel(model_path, model_json);
  if (!model) return model.error();
  const auto count = [&model](char kind) {
    return static_cast<int>(std::count_if(model->layers.begin(), model->layers.end(),
                                          [kind](const ModelLayer& l) { return l.kind == kind; }));
  };
  Result<Layout> split = ReadLayout(
      layout, {.P = p.P, .chunks = chunks_given ? p.v : 0, .num_layers = count('t'), .mtp_layers = count('m')});
  if (!split) return split.error();
  Result<StageCosts> costs = SumStageCosts(*model, *split);
  if (!costs) return costs.error();
  return ApplyStageCosts(*costs, *split, p);
}

Error LayoutRunsSchedule(const std::string& schedule) {
  const GeneratorInfo* g = FindGenerator(schedule);
  if (g == nullptr || g->placement == Placement::kLoop) return Error::Ok();
  return Error::Field(ErrorCode::kPrecondition, "layout",
                      ": Megatron runs stage i on rank i mod P, and " + g->name +
                          " places its stages otherwise (docs/layouts.md)");
}

Error PlacementAgrees(const std::string& spec, const std::string& schedule, const Problem& placed) {
  Result<std::vector<int>> given = ParsePlacement(spec, placed.P, placed.v);
  if (!given) return given.error();
  for (int s = 0; s < placed.stages(); ++s) {
    if ((*given)[s] == placed.DeviceOf(s)) continue;
    return Error::Field(ErrorCode::kPrecondition, "placement",
                        ": " + schedule + " is defined for the " + PlacementName(placed.placement) +
                            " placement, which puts stage " + std::to_string(s) + " on device " +
                            std::to_string(placed.DeviceOf(s)) + ", not " + std::to_string((*given)[s]) +
                            " (a schedule file runs any placement: its own)");
  }
  return Error::Ok();
}

}  // namespace ppsim::io

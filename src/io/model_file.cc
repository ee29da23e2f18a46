#include "ppsim/io/model_file.h"

#include <toml++/toml.h>

#include <algorithm>
#include <string>

#include "ppsim/generators.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/layout.h"
#include "ppsim/placement_spec.h"
#include "ppsim/memory_model.h"
#include "model_kinds.h"

namespace ppsim::io {
namespace {

Error At(Error e, const std::string& source, const toml::source_region& region) {
  return e.At(source, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column));
}

// A whole number in [0, max] at `node`, named `field`.
Error Count(const toml::node& node, const std::string& field, long long min, long long max, const std::string& source,
            std::int64_t& out) {
  const auto* i = node.as_integer();
  if (i == nullptr)
    return At(Error::Field(ErrorCode::kInvalidValue, field, ": expected a whole number"), source, node.source());
  const std::int64_t v = i->get();
  if (v < min)
    return At(Error::Field(ErrorCode::kInvalidValue, field,
                           " must be ≥ " + std::to_string(min) + ", got " + std::to_string(v)),
              source, node.source());
  if (v > max)
    return At(Error::Field(ErrorCode::kTooLarge, field,
                           ": " + std::to_string(v) + " exceeds the limit " + std::to_string(max)),
              source, node.source());
  out = v;
  return Error::Ok();
}

using model_keys::KindLetter;

// One [[layer]] table, appended `repeat` times.
Error ReadLayer(const toml::table& t, const toml::node& where, const std::string& source, Model& model) {
  ModelLayer layer;
  std::int64_t repeat = 1;
  bool has_kind = false;
  for (const auto& [k, node] : t) {
    const std::string key(k.str());
    Error e = Error::Ok();
    if (key == "kind") {
      const auto* s = node.as_string();
      layer.kind = s ? KindLetter(s->get()) : 0;
      if (layer.kind == 0)
        return At(Fail(ErrorCode::kUnknownName, "kind: " + (s ? "'" + s->get() + "'" : std::string("a non-string")) +
                                                    " is not a layer kind (embedding, decoder, mtp, loss)"),
                  source, node.source());
      has_kind = true;
    } else if (key == "name") {
      if (!node.is_string())
        return At(Error::Field(ErrorCode::kInvalidValue, "name", ": expected a string"), source, node.source());
      layer.name = node.as_string()->get();
    } else if (key == "repeat") {
      e = Count(node, key, 1, kMaxModelLayers, source, repeat);
    } else if (key == "F" || key == "B" || key == "W") {
      Tick& cost = key == "F" ? layer.f : key == "B" ? layer.b : layer.w;
      e = Count(node, key, 0, kMaxCost, source, cost);
    } else if (key == "activation_bytes" || key == "param_bytes" || key == "checkpoint_bytes") {
      std::int64_t& bytes = key == "param_bytes"        ? layer.param_bytes
                            : key == "checkpoint_bytes" ? layer.checkpoint_bytes
                                                        : layer.activation_bytes;
      e = Count(node, key, 0, kMaxBytes, source, bytes);
    } else {
      return At(Fail(ErrorCode::kUnknownName, "unknown key '" + key +
                                                  "' (known: kind, name, repeat, F, B, W, activation_bytes, "
                                                  "checkpoint_bytes, param_bytes)"),
                source, k.source());
    }
    if (!e.ok()) return e;
  }
  if (!has_kind)
    return At(Fail(ErrorCode::kInvalidValue, "layer: no kind (embedding, decoder, mtp, loss)"), source, where.source());
  if (static_cast<long long>(model.layers.size()) + repeat > kMaxModelLayers)
    return At(Fail(ErrorCode::kTooLarge, "repeat: more than " + std::to_string(kMaxModelLayers) + " layers in all"),
              source, where.source());
  model.layers.insert(model.layers.end(), static_cast<size_t>(repeat), layer);
  return Error::Ok();
}

// The [bytes_per_param] table: weight (≥ 1), grad and optimizer bytes.
Error ReadBytesPerParam(const toml::node& node, const std::string& source, BytesPerParam& per) {
  const toml::table* t = node.as_table();
  if (t == nullptr)
    return At(Fail(ErrorCode::kInvalidValue, "bytes_per_param: expected a table ([bytes_per_param])"), source,
              node.source());
  for (const auto& [k, value] : *t) {
    const std::string key(k.str());
    int* field = key == "weight" ? &per.weight : key == "grad" ? &per.grad : key == "optimizer" ? &per.optimizer : nullptr;
    if (field == nullptr)
      return At(Fail(ErrorCode::kUnknownName,
                     "bytes_per_param: unknown key '" + key + "' (known: weight, grad, optimizer)"),
                source, k.source());
    std::int64_t n = 0;
    if (Error e = Count(value, "bytes_per_param." + key, key == "weight" ? 1 : 0, 64, source, n); !e.ok()) return e;
    *field = static_cast<int>(n);
  }
  return Error::Ok();
}

// `recompute = ["decoder", "moe"]`: each a layer kind or a layer's name;
// those layers are recomputed.
Error ReadRecompute(const toml::node& node, const std::string& source, Model& model) {
  const toml::array* list = node.as_array();
  if (list == nullptr)
    return At(Fail(ErrorCode::kInvalidValue, "recompute: expected a list of layer kinds or names"), source,
              node.source());
  for (const toml::node& item : *list) {
    const auto* s = item.as_string();
    if (s == nullptr)
      return At(Fail(ErrorCode::kInvalidValue, "recompute: expected a layer kind or name (a string)"), source,
                item.source());
    const std::string what = s->get();
    if (!model_keys::MarkRecompute(what, model))
      return At(Fail(ErrorCode::kUnknownName, "recompute: '" + what +
                                                  "' is neither a layer kind (embedding, decoder, mtp, loss) nor "
                                                  "the name of a layer of this model"),
                source, item.source());
  }
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
    if (key == "name") continue;
    if (key == "recompute") {
      recompute = &node;
      continue;
    }
    if (key == "bytes_per_param") {
      if (Error e = ReadBytesPerParam(node, source, model.bytes_per_param); !e.ok()) return e;
      continue;
    }
    if (key != "layer")
      return At(Fail(ErrorCode::kUnknownName,
                     "unknown key '" + key + "' (known: name, recompute, [bytes_per_param], [[layer]])"),
                source, k.source());
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
    return Error(ErrorCode::kInvalidValue, "no [[layer]]: a model has at least one layer").At(source, 1, 1);
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

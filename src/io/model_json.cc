// The model file's JSON twin (model_file.h, docs/costs.md): the TOML's keys
// and meaning, read from JSON text; an error names the JSON path of the
// value at fault ("layer[3].F") after the source.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "model_kinds.h"
#include "ppsim/io/model_file.h"
#include "ppsim/memory_model.h"
#include "ppsim/problem.h"

namespace ppsim::io {
namespace {

using Json = nlohmann::ordered_json;

// The error of `path`, placed in `source`.
Error Bad(ErrorCode code, const std::string& path, const std::string& what, const std::string& source) {
  return Error::Field(code, path, what).At(source);
}

// A whole number in [min, max] at `node`, named `path`.
Error Count(const Json& node, const std::string& path, long long min, long long max, const std::string& source,
            std::int64_t& out) {
  if (!node.is_number_integer()) return Bad(ErrorCode::kInvalidValue, path, ": expected a whole number", source);
  if (node.is_number_unsigned() && node.get<std::uint64_t>() > static_cast<std::uint64_t>(max))
    return Bad(ErrorCode::kTooLarge, path,
               ": " + std::to_string(node.get<std::uint64_t>()) + " exceeds the limit " + std::to_string(max), source);
  const std::int64_t v = node.get<std::int64_t>();
  if (v < min)
    return Bad(ErrorCode::kInvalidValue, path, " must be ≥ " + std::to_string(min) + ", got " + std::to_string(v),
               source);
  if (v > max)
    return Bad(ErrorCode::kTooLarge, path, ": " + std::to_string(v) + " exceeds the limit " + std::to_string(max),
               source);
  out = v;
  return Error::Ok();
}

// One layer object, layer[i], appended `repeat` times.
Error ReadLayer(const Json& t, const std::string& at, const std::string& source, Model& model) {
  if (!t.is_object()) return Bad(ErrorCode::kInvalidValue, at, ": expected an object {\"kind\": ...}", source);
  ModelLayer layer;
  std::int64_t repeat = 1;
  bool has_kind = false;
  for (const auto& [key, node] : t.items()) {
    const std::string path = at + "." + key;
    Error e = Error::Ok();
    if (key == "kind") {
      layer.kind = node.is_string() ? model_keys::KindLetter(node.get<std::string>()) : 0;
      if (layer.kind == 0)
        return Bad(ErrorCode::kUnknownName, path,
                   ": " + (node.is_string() ? "'" + node.get<std::string>() + "'" : std::string("a non-string")) +
                       " is not a layer kind (" + model_keys::kKinds + ")",
                   source);
      has_kind = true;
    } else if (key == "name") {
      if (!node.is_string()) return Bad(ErrorCode::kInvalidValue, path, ": expected a string", source);
      layer.name = node.get<std::string>();
    } else if (key == "repeat") {
      e = Count(node, path, 1, kMaxModelLayers, source, repeat);
    } else if (key == "F" || key == "B" || key == "W") {
      Tick& cost = key == "F" ? layer.f : key == "B" ? layer.b : layer.w;
      e = Count(node, path, 0, kMaxCost, source, cost);
    } else if (key == "activation_bytes" || key == "param_bytes" || key == "checkpoint_bytes") {
      std::int64_t& bytes = key == "param_bytes"        ? layer.param_bytes
                            : key == "checkpoint_bytes" ? layer.checkpoint_bytes
                                                        : layer.activation_bytes;
      e = Count(node, path, 0, kMaxBytes, source, bytes);
    } else {
      return Bad(ErrorCode::kUnknownName, at,
                 ": unknown key '" + key + "' (known: " + model_keys::kLayerKeys + ")", source);
    }
    if (!e.ok()) return e;
  }
  if (!has_kind)
    return Bad(ErrorCode::kInvalidValue, at, ": no kind (" + std::string(model_keys::kKinds) + ")", source);
  if (static_cast<long long>(model.layers.size()) + repeat > kMaxModelLayers)
    return Bad(ErrorCode::kTooLarge, at + ".repeat",
               ": more than " + std::to_string(kMaxModelLayers) + " layers in all", source);
  model.layers.insert(model.layers.end(), static_cast<size_t>(repeat), layer);
  return Error::Ok();
}

Error ReadBytesPerParam(const Json& node, const std::string& source, BytesPerParam& per) {
  if (!node.is_object())
    return Bad(ErrorCode::kInvalidValue, "bytes_per_param", ": expected an object {\"weight\": ...}", source);
  for (const auto& [key, value] : node.items()) {
    int* field = key == "weight" ? &per.weight : key == "grad" ? &per.grad : key == "optimizer" ? &per.optimizer : nullptr;
    if (field == nullptr)
      return Bad(ErrorCode::kUnknownName, "bytes_per_param",
                 ": unknown key '" + key + "' (known: weight, grad, optimizer)", source);
    std::int64_t n = 0;
    if (Error e = Count(value, "bytes_per_param." + key, key == "weight" ? 1 : 0, 64, source, n); !e.ok()) return e;
    *field = static_cast<int>(n);
  }
  return Error::Ok();
}

Error ReadRecompute(const Json& node, const std::string& source, Model& model) {
  if (!node.is_array())
    return Bad(ErrorCode::kInvalidValue, "recompute", ": expected a list of layer kinds or names", source);
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string path = "recompute[" + std::to_string(i) + "]";
    if (!node[i].is_string())
      return Bad(ErrorCode::kInvalidValue, path, ": expected a layer kind or name (a string)", source);
    const std::string what = node[i].get<std::string>();
    if (!model_keys::MarkRecompute(what, model))
      return Bad(ErrorCode::kUnknownName, path,
                 ": '" + what + "' is neither a layer kind (" + model_keys::kKinds +
                     ") nor the name of a layer of this model",
                 source);
  }
  return Error::Ok();
}

// "parse error at line 1, column 5: syntax error ..." → what follows the position.
std::string SyntaxMessage(const std::string& what) {
  const size_t column = what.find("column ");
  const size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

Result<Model> ParseModelJson(std::string_view text, const std::string& source) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based: the byte where the parser stopped.
    int line = 1, column = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
        ++column;
      }
    }
    return Fail(ErrorCode::kParse, SyntaxMessage(e.what())).At(source, line, column);
  }
  if (!doc.is_object())
    return Fail(ErrorCode::kInvalidValue, "expected a JSON object {\"layer\": [...]} (docs/costs.md)").At(source);
  Model model;
  const Json* recompute = nullptr;  // read once every layer is known
  for (const auto& [key, node] : doc.items()) {
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
      return Fail(ErrorCode::kUnknownName,
                  "unknown key '" + key + "' (known: name, recompute, bytes_per_param, layer)")
          .At(source);
    if (!node.is_array()) return Bad(ErrorCode::kInvalidValue, "layer", ": expected a list of layer objects", source);
    for (size_t i = 0; i < node.size(); ++i)
      if (Error e = ReadLayer(node[i], "layer[" + std::to_string(i) + "]", source, model); !e.ok()) return e;
  }
  if (model.layers.empty()) return Bad(ErrorCode::kInvalidValue, "layer", ": a model has at least one layer", source);
  if (recompute != nullptr)
    if (Error e = ReadRecompute(*recompute, source, model); !e.ok()) return e;
  return model;
}

}  // namespace ppsim::io

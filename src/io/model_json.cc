// The model file's JSON twin (model_file.h, docs/costs.md): the TOML's keys
// and meaning, read from JSON text; an error names the JSON path of the
// value at fault ("layer[3].F") after the source.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "model_keys.h"
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

namespace keys = model_keys;

// The value at `node` as the shared rules see it.
keys::Value ValueOf(const Json& node) {
  keys::Value v;
  if (node.is_number_integer()) {
    v.type = keys::Value::Type::kInteger;
    if (node.is_number_unsigned() && node.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max())
      v.above = node.get<std::uint64_t>();
    else
      v.integer = node.get<std::int64_t>();
  } else if (node.is_string()) {
    v.type = keys::Value::Type::kString;
    v.text = node.get<std::string>();
  }
  return v;
}

// One layer object, layer[i], appended `repeat` times.
Error ReadLayer(const Json& t, const std::string& at, const std::string& source, Model& model) {
  if (!t.is_object()) return Bad(ErrorCode::kInvalidValue, at, ": expected an object {\"kind\": ...}", source);
  keys::LayerDraft draft;
  for (const auto& [key, node] : t.items()) {
    if (!keys::IsLayerKey(key)) return keys::UnknownKey(at, key, keys::LayerKeyList()).At(source);
    if (Error e = keys::SetLayerKey(key, ValueOf(node), at + "." + key, draft); !e.ok()) return e.At(source);
  }
  return keys::AppendLayer(draft, at, at + ".repeat", model).At(source);
}

Error ReadBytesPerParam(const Json& node, const std::string& source, BytesPerParam& per) {
  if (!node.is_object())
    return Bad(ErrorCode::kInvalidValue, "bytes_per_param", ": expected an object {\"weight\": ...}", source);
  for (const auto& [key, value] : node.items())
    if (Error e = keys::SetBytesPerParam(key, ValueOf(value), per); !e.ok()) return e.At(source);
  return Error::Ok();
}

Error ReadRecompute(const Json& node, const std::string& source, Model& model) {
  if (!node.is_array()) return keys::RecomputeNotAList().At(source);
  for (size_t i = 0; i < node.size(); ++i)
    if (Error e = keys::Recompute(ValueOf(node[i]), "recompute[" + std::to_string(i) + "]", model); !e.ok())
      return e.At(source);
  return Error::Ok();
}

// "parse error at line 1, column 5: syntax error ..." → what follows the position.
std::string SyntaxMessage(const std::string& what) {
  const size_t column = what.find("column ");
  const size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// A model nests three levels (the object, the layer list, a layer); deeper
// input is refused while it is read, before it fills memory.
constexpr int kMaxDepth = 64;
struct TooDeep {};

}  // namespace

Result<Model> ParseModelJson(std::string_view text, const std::string& source) {
  Json doc;
  std::string last_key;  // the last key read, to name the value a bad number belongs to
  auto track = [&last_key](int depth, Json::parse_event_t event, Json& parsed) {
    if (depth > kMaxDepth) throw TooDeep{};
    if (event == Json::parse_event_t::key) last_key = parsed.is_string() ? parsed.get<std::string>() : "";
    return true;
  };
  try {
    doc = Json::parse(text, track);
  } catch (const TooDeep&) {
    return Fail(ErrorCode::kParse, "nested deeper than " + std::to_string(kMaxDepth) + " levels; a model nests 3")
        .At(source);
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
  } catch (const Json::exception& e) {
    // out_of_range.406, "number overflow parsing '1e999'": a number no
    // double holds. What follows nlohmann's "[json.exception...] " tag.
    std::string what = e.what();
    if (const size_t tag = what.find("] "); tag != std::string::npos) what.erase(0, tag + 2);
    return Fail(ErrorCode::kParse, (last_key.empty() ? "" : "the value of \"" + last_key + "\": ") + what)
        .At(source);
  }
  if (!doc.is_object())
    return Fail(ErrorCode::kInvalidValue, "expected a JSON object {\"layer\": [...]} (docs/costs.md)").At(source);
  Model model;
  const Json* recompute = nullptr;  // read once every layer is known
  for (const auto& [key, node] : doc.items()) {
    if (key == "name") {
      if (Error e = keys::ModelName(ValueOf(node)); !e.ok()) return e.At(source);
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
      return keys::UnknownKey("", key, "name, recompute, bytes_per_param, layer").At(source);
    if (!node.is_array()) return Bad(ErrorCode::kInvalidValue, "layer", ": expected a list of layer objects", source);
    for (size_t i = 0; i < node.size(); ++i)
      if (Error e = ReadLayer(node[i], "layer[" + std::to_string(i) + "]", source, model); !e.ok()) return e;
  }
  if (model.layers.empty()) return keys::NoLayers("layer").At(source);
  if (recompute != nullptr)
    if (Error e = ReadRecompute(*recompute, source, model); !e.ok()) return e;
  return model;
}

}  // namespace ppsim::io

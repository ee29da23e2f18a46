// The model file's JSON twin: the same keys read as the same model as the
// TOML (every field of every layer), and each error names the JSON path of
// the value at fault with the TOML's code.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/io/model_file.h"

namespace ppsim {
namespace {

const char* const kToml = R"(name = "small"
recompute = ["moe"]
[bytes_per_param]
weight = 2
grad = 4
optimizer = 8
[[layer]]
kind = "embedding"
F = 1
B = 1
W = 1
param_bytes = 100
[[layer]]
kind = "decoder"
name = "moe"
repeat = 3
F = 2
B = 3
W = 1
activation_bytes = 10
checkpoint_bytes = 2
param_bytes = 50
[[layer]]
kind = "mtp"
F = 4
B = 4
W = 4
[[layer]]
kind = "loss"
F = 1
B = 1
)";

const char* const kJson = R"({"name": "small", "recompute": ["moe"],
 "bytes_per_param": {"weight": 2, "grad": 4, "optimizer": 8},
 "layer": [
  {"kind": "embedding", "F": 1, "B": 1, "W": 1, "param_bytes": 100},
  {"kind": "decoder", "name": "moe", "repeat": 3, "F": 2, "B": 3, "W": 1, "activation_bytes": 10,
   "checkpoint_bytes": 2, "param_bytes": 50},
  {"kind": "mtp", "F": 4, "B": 4, "W": 4},
  {"kind": "loss", "F": 1, "B": 1}
 ]})";

TEST(ModelJson, ReadsAsTheSameModelAsTheToml) {
  Result<Model> toml = io::ParseModelText(kToml, "m.toml");
  Result<Model> json = io::ParseModelJson(kJson, "m.json");
  ASSERT_TRUE(toml.ok()) << toml.error().Text();
  ASSERT_TRUE(json.ok()) << json.error().Text();
  ASSERT_EQ(json->layers.size(), 6u);
  ASSERT_EQ(json->layers.size(), toml->layers.size());
  for (size_t i = 0; i < json->layers.size(); ++i) {
    const ModelLayer &a = json->layers[i], &b = toml->layers[i];
    EXPECT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(a.name, b.name) << i;
    EXPECT_EQ(a.f, b.f) << i;
    EXPECT_EQ(a.b, b.b) << i;
    EXPECT_EQ(a.w, b.w) << i;
    EXPECT_EQ(a.activation_bytes, b.activation_bytes) << i;
    EXPECT_EQ(a.checkpoint_bytes, b.checkpoint_bytes) << i;
    EXPECT_EQ(a.param_bytes, b.param_bytes) << i;
    EXPECT_EQ(a.recompute, b.recompute) << i;
  }
  EXPECT_TRUE(json->layers[3].recompute);
  EXPECT_FALSE(json->layers[4].recompute);
  EXPECT_EQ(json->bytes_per_param.grad, 4);
  EXPECT_EQ(json->bytes_per_param.optimizer, 8);
}

TEST(ModelJson, ErrorsNameTheJsonPath) {
  struct Case {
    std::string text;
    ErrorCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"layer": [{"kind": "decoder"}, {"kind": "moe"}]})", ErrorCode::kUnknownName,
       "m.json: layer[1].kind: 'moe' is not a layer kind (embedding, decoder, mtp, loss)"},
      {R"({"layer": [{"kind": "embedding"}, {"kind": "decoder"}, {"kind": "decoder"}, {"kind": "decoder", "F": -1}]})",
       ErrorCode::kInvalidValue, "m.json: layer[3].F must be ≥ 0, got -1"},
      {R"({"layer": [{"kind": "decoder", "F": "2"}]})", ErrorCode::kInvalidValue,
       "m.json: layer[0].F: expected a whole number"},
      {R"({"layer": [{"kind": "decoder", "F": 2.5}]})", ErrorCode::kInvalidValue,
       "m.json: layer[0].F: expected a whole number"},
      {R"({"layer": [{"kind": "decoder", "repeat": 0}]})", ErrorCode::kInvalidValue,
       "m.json: layer[0].repeat must be ≥ 1, got 0"},
      {R"({"layer": [{"kind": "decoder", "FLOPS": 1}]})", ErrorCode::kUnknownName,
       "m.json: layer[0]: unknown key 'FLOPS' (known: kind, name, repeat, F, B, W, activation_bytes, "
       "checkpoint_bytes, param_bytes)"},
      {R"({"recompute": ["decoder", "moe"], "layer": [{"kind": "decoder"}]})", ErrorCode::kUnknownName,
       "m.json: recompute[1]: 'moe' is neither a layer kind (embedding, decoder, mtp, loss) nor the name of a layer "
       "of this model"},
      {R"({"bytes_per_param": {"grad": 65}, "layer": [{"kind": "decoder"}]})", ErrorCode::kTooLarge,
       "m.json: bytes_per_param.grad: 65 exceeds the limit 64"},
      {R"({"bytes_per_param": {"adam": 8}, "layer": [{"kind": "decoder"}]})", ErrorCode::kUnknownName,
       "m.json: bytes_per_param: unknown key 'adam' (known: weight, grad, optimizer)"},
      {R"({"layer": [{"F": 1}]})", ErrorCode::kInvalidValue,
       "m.json: layer[0]: no kind (embedding, decoder, mtp, loss)"},
      {R"({"layers": []})", ErrorCode::kUnknownName,
       "m.json: unknown key 'layers' (known: name, recompute, bytes_per_param, layer)"},
      {R"({"name": "x"})", ErrorCode::kInvalidValue, "m.json: layer: a model has at least one layer"},
      {R"([{"kind": "decoder"}])", ErrorCode::kInvalidValue,
       "m.json: expected a JSON object {\"layer\": [...]} (docs/costs.md)"},
      {R"({"layer": [{"kind": "decoder", "repeat": 2000000}]})", ErrorCode::kTooLarge,
       "m.json: layer[0].repeat: 2000000 exceeds the limit 1048576"},
      {R"({"layer": [{"kind": "decoder", "param_bytes": 18446744073709551615}]})", ErrorCode::kTooLarge,
       "m.json: layer[0].param_bytes: 18446744073709551615 exceeds the limit 68719476736"},
      {"{\"layer\": [\n  {\"kind\": \"decoder\",}\n]}", ErrorCode::kParse, ""},
      // Found by the model_json fuzz target: nlohmann throws out_of_range,
      // not parse_error, for a number no double holds (was exit 70).
      {R"({"layer": [{"kind": "decoder", "F": 1e999}]})", ErrorCode::kParse,
       "m.json: the value of \"F\": number overflow parsing '1e999'"},
      {R"({"layer": [{"kind": "decoder", "x": )" + std::string(100, '[') + std::string(100, ']') + "}]}",
       ErrorCode::kParse, "m.json: nested deeper than 64 levels; a model nests 3"},
  };
  for (const Case& c : cases) {
    Result<Model> m = io::ParseModelJson(c.text, "m.json");
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_EQ(m.error().code, c.code) << c.text;
    if (!c.message.empty()) {
      EXPECT_EQ(m.error().Text(), c.message) << c.text;
    }
  }
  // A syntax error is placed at its line and column.
  Result<Model> m = io::ParseModelJson("{\"layer\": [\n  {\"kind\": \"decoder\",}\n]}", "m.json");
  EXPECT_EQ(m.error().file, "m.json");
  EXPECT_EQ(m.error().line, 2);
}

// Both spellings share one rule per key (src/io/model_keys.cc): the same bad
// value gets the same code and the same message, the TOML naming the key at
// its line and column, the JSON the value's path.
TEST(ModelJson, EachKeyHasTheTomlsRuleAndMessage) {
  struct Case {
    std::string key, toml_value, json_value, message;
  };
  const std::vector<Case> cases = {
      {"F", "-1", "-1", " must be ≥ 0, got -1"},
      {"B", "\"2\"", "\"2\"", ": expected a whole number"},
      {"W", "2.5", "2.5", ": expected a whole number"},
      {"repeat", "0", "0", " must be ≥ 1, got 0"},
      {"repeat", "2000000", "2000000", ": 2000000 exceeds the limit 1048576"},
      {"activation_bytes", "true", "true", ": expected a whole number"},
      {"param_bytes", "68719476737", "68719476737", ": 68719476737 exceeds the limit 68719476736"},
      {"checkpoint_bytes", "-5", "-5", " must be ≥ 0, got -5"},
      {"name", "3", "3", ": expected a string"},
      {"kind", "\"moe\"", "\"moe\"", ": 'moe' is not a layer kind (embedding, decoder, mtp, loss)"},
      {"kind", "1", "1", ": a non-string is not a layer kind (embedding, decoder, mtp, loss)"},
  };
  for (const Case& c : cases) {
    const bool is_kind = c.key == "kind";
    const std::string toml =
        "[[layer]]\n" + std::string(is_kind ? "" : "kind = \"decoder\"\n") + c.key + " = " + c.toml_value + "\n";
    const std::string json = R"({"layer": [{)" + std::string(is_kind ? "" : R"("kind": "decoder", )") + "\"" + c.key +
                             "\": " + c.json_value + "}]}";
    Result<Model> t = io::ParseModelText(toml, "m.toml");
    Result<Model> j = io::ParseModelJson(json, "m.json");
    ASSERT_FALSE(t.ok()) << toml;
    ASSERT_FALSE(j.ok()) << json;
    EXPECT_EQ(t.error().code, j.error().code) << c.key;
    EXPECT_EQ(t.error().field + t.error().message, c.key + c.message) << toml;
    EXPECT_EQ(j.error().Text(), "m.json: layer[0]." + c.key + c.message) << json;
  }
  // The model's own name and the bytes per parameter: the same text in both.
  const std::vector<std::pair<std::string, std::string>> same = {
      {"name = 3\n[[layer]]\nkind = \"decoder\"\n", R"({"name": 3, "layer": [{"kind": "decoder"}]})"},
      {"[bytes_per_param]\ngrad = 65\n[[layer]]\nkind = \"decoder\"\n",
       R"({"bytes_per_param": {"grad": 65}, "layer": [{"kind": "decoder"}]})"},
      {"recompute = [7]\n[[layer]]\nkind = \"decoder\"\n", R"({"recompute": [7], "layer": [{"kind": "decoder"}]})"},
  };
  for (const auto& [toml, json] : same) {
    Result<Model> t = io::ParseModelText(toml, "m.toml");
    Result<Model> j = io::ParseModelJson(json, "m.json");
    ASSERT_FALSE(t.ok() || j.ok()) << toml;
    EXPECT_EQ(t.error().code, j.error().code) << toml;
    EXPECT_EQ(t.error().message, j.error().message) << toml;
  }
  EXPECT_EQ(io::ParseModelText("name = 3\n[[layer]]\nkind = \"decoder\"\n", "m.toml").error().Text(),
            "m.toml:1:8: name: expected a string");
}

}  // namespace
}  // namespace ppsim

#include "ppsim/io/cost_file.h"

#include <toml++/toml.h>

#include "toml_key_value.h"
#include "ppsim/io/atomic_file.h"

namespace ppsim::io {
namespace {

Error At(Error e, const std::string& source, const toml::source_region& region) {
  return e.At(source, static_cast<int>(region.begin.line), static_cast<int>(region.begin.column));
}

// One key of the file: costs.F ... comm ... memory.limit, through the key table.
Error Set(const std::string& key, const toml::node& node, const std::string& source, Problem& p) {
  return At(SetProblemKey(key, ToKeyValue(node), p), source, node.source());
}

Error Unknown(const std::string& source, const toml::key& at, const std::string& key, const char* known) {
  return At(Fail(ErrorCode::kUnknownName, "unknown key '" + key + "' (known: " + known + ")"), source, at.source());
}

}  // namespace

Error ApplyCostText(std::string_view text, const std::string& source, Problem& p) {
  toml::table doc;
  try {
    doc = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return At(Fail(ErrorCode::kParse, std::string(e.description())), source, e.source());
  }
  for (const auto& [k, node] : doc) {
    const std::string key(k.str());
    if (key == "F" || key == "B" || key == "W" || key == "FB" || key == "BW" || key == "comm") {
      if (Error e = Set(key == "comm" ? key : "costs." + key, node, source, p); !e.ok()) return e;
    } else if (key == "memory") {
      const toml::table* table = node.as_table();
      if (table == nullptr)
        return At(Fail(ErrorCode::kInvalidValue, "memory: expected a table ([memory])"), source, node.source());
      for (const auto& [mk, mnode] : *table) {
        const std::string name = "memory." + std::string(mk.str());
        if (FindProblemKey(name) == nullptr)
          return Unknown(source, mk, name,
                         "activation_bytes, freed_by_b_percent, param_bytes, grad_bytes, optimizer_bytes, limit");
        if (Error e = Set(name, mnode, source, p); !e.ok()) return e;
      }
    } else {
      return Unknown(source, k, key, "F, B, W, FB, BW, comm, [memory]");
    }
  }
  return Error::Ok();
}

Error ApplyCostFile(const std::string& path, Problem& problem) {
  Result<std::string> text = ReadFile(path);  // a directory, FIFO or huge file is an error, not "no costs"
  if (!text) return Error::Field(text.error().code, "cost_file", ": " + text.error().Text());
  return ApplyCostText(*text, path, problem);
}

}  // namespace ppsim::io

#include "ppsim/io/cost_file.h"

#include <vector>

#include <toml++/toml.h>

#include "ppsim/io/atomic_file.h"

namespace ppsim {
namespace {

std::string Where(const std::string& source, const toml::source_region& region) {
  return source + ":" + std::to_string(region.begin.line) + ":" + std::to_string(region.begin.column);
}

// An integer or an array of integers, each ≥ min.
Error ReadList(const toml::node& node, const std::string& source, const std::string& key, std::int64_t min,
               std::vector<std::int64_t>& out) {
  out.clear();
  auto one = [&](const toml::node& n) -> Error {
    const auto* v = n.as_integer();
    if (v == nullptr)
      return Fail(ErrorCode::kParse, Where(source, n.source()) + ": " + key + ": expected a whole number");
    if (v->get() < min)
      return Fail(ErrorCode::kInvalidValue, Where(source, n.source()) + ": " + key + " must be ≥ " +
                                                std::to_string(min) + ", got " + std::to_string(v->get()));
    out.push_back(v->get());
    return Error{ErrorCode::kOk, ""};
  };
  if (const auto* array = node.as_array()) {
    if (array->empty())
      return Fail(ErrorCode::kParse, Where(source, node.source()) + ": " + key + ": empty list");
    for (const toml::node& n : *array) {
      Error e = one(n);
      if (e.code != ErrorCode::kOk) return e;
    }
    return Error{ErrorCode::kOk, ""};
  }
  return one(node);
}

Error Unknown(const std::string& source, const toml::key& at, const std::string& key, const char* known) {
  return Fail(ErrorCode::kParse, Where(source, at.source()) + ": unknown key '" + key + "' (known: " + known + ")");
}

Error ApplyMemory(const toml::table& table, const std::string& source, MemoryModel& m) {
  for (const auto& [k, node] : table) {
    const std::string key(k.str());
    std::vector<std::int64_t> values;
    std::vector<std::int64_t>* list = key == "activation_bytes" ? &m.activation_bytes
                                      : key == "param_bytes"    ? &m.param_bytes
                                      : key == "grad_bytes"     ? &m.grad_bytes
                                      : key == "optimizer_bytes" ? &m.optimizer_bytes
                                                                 : nullptr;
    if (list != nullptr) {
      Error e = ReadList(node, source, "memory." + key, 0, *list);
      if (e.code != ErrorCode::kOk) return e;
    } else if (key == "freed_by_b_percent" || key == "limit") {
      Error e = ReadList(node, source, "memory." + key, 0, values);
      if (e.code != ErrorCode::kOk) return e;
      if (values.size() != 1)
        return Fail(ErrorCode::kParse, Where(source, node.source()) + ": memory." + key + ": expected one number");
      if (key == "limit") {
        m.limit = values[0];
      } else {
        if (values[0] > 100)
          return Fail(ErrorCode::kInvalidValue, Where(source, node.source()) +
                                                    ": memory.freed_by_b_percent must be in [0, 100], got " +
                                                    std::to_string(values[0]));
        m.freed_by_b_percent = static_cast<int>(values[0]);
      }
    } else {
      return Unknown(source, k, "memory." + key,
                     "activation_bytes, freed_by_b_percent, param_bytes, grad_bytes, optimizer_bytes, limit");
    }
  }
  return Error{ErrorCode::kOk, ""};
}

}  // namespace

Error ApplyCostText(std::string_view text, const std::string& source, Problem& p) {
  toml::table doc;
  try {
    doc = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    return Fail(ErrorCode::kParse, Where(source, e.source()) + ": " + std::string(e.description()));
  }
  for (const auto& [k, node] : doc) {
    const std::string key(k.str());
    std::vector<Tick>* costs = key == "F"    ? &p.costs.f
                               : key == "B"  ? &p.costs.b
                               : key == "W"  ? &p.costs.w
                               : key == "FB" ? &p.costs.fb
                               : key == "BW" ? &p.costs.bw
                                             : nullptr;
    if (costs != nullptr) {
      Error e = ReadList(node, source, key, 1, *costs);
      if (e.code != ErrorCode::kOk) return e;
    } else if (key == "comm") {
      std::vector<Tick> values;
      Error e = ReadList(node, source, key, 0, values);
      if (e.code != ErrorCode::kOk) return e;
      if (node.is_array()) {
        p.comm_hops = values;
      } else {
        p.comm = values[0];
        p.comm_hops.clear();
      }
    } else if (key == "memory") {
      const toml::table* table = node.as_table();
      if (table == nullptr)
        return Fail(ErrorCode::kParse, Where(source, node.source()) + ": memory: expected a table ([memory])");
      Error e = ApplyMemory(*table, source, p.memory);
      if (e.code != ErrorCode::kOk) return e;
    } else {
      return Unknown(source, k, key, "F, B, W, FB, BW, comm, [memory]");
    }
  }
  return Error{ErrorCode::kOk, ""};
}

Error ApplyCostFile(const std::string& path, Problem& problem) {
  Result<std::string> text = ReadFile(path);  // a directory, FIFO or huge file is an error, not "no costs"
  if (!text) return Fail(text.error().code, "--cost-file: " + text.error().message);
  return ApplyCostText(*text, path, problem);
}

}  // namespace ppsim

// A TOML value as a key-table value (problem_keys.h): what a scene and a cost
// file hand to SetProblemKey, so that they check values as the CLI does.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "ppsim/problem_keys.h"

namespace ppsim::io {

inline KeyValue ToKeyValue(const toml::node& node) {
  if (const auto* i = node.as_integer()) return KeyValue::Int(i->get());
  if (const auto* s = node.as_string()) return KeyValue::Word(s->get());
  if (const auto* a = node.as_array()) {
    std::vector<std::int64_t> ints;
    for (const toml::node& x : *a) {
      if (!x.is_integer()) {
        std::ostringstream text;
        text << *a;
        return KeyValue::Other(text.str());
      }
      ints.push_back(x.as_integer()->get());
    }
    return KeyValue::List(std::move(ints));
  }
  if (node.is_table()) return KeyValue::Other("a table");
  std::ostringstream text;
  node.visit([&](const auto& v) { text << v; });
  return KeyValue::Other(text.str());
}

}  // namespace ppsim::io

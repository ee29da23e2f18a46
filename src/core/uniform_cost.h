// Uniform: a per-stage cost vector's one value, for the closed forms
// (closed_forms.h), which hold only when every stage costs the same.
#pragma once

#include <optional>
#include <vector>

#include "ppsim/problem.h"

namespace ppsim {

// The one value of a cost vector when every stage has it, else nullopt
// (also for an empty vector: no such cost).
inline std::optional<Tick> Uniform(const std::vector<Tick>& values) {
  if (values.empty()) return std::nullopt;
  for (Tick v : values)
    if (v != values[0]) return std::nullopt;
  return values[0];
}

}  // namespace ppsim

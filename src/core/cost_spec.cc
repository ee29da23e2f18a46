#include "ppsim/cost_spec.h"

#include <string>
#include <vector>

#include "ppsim/problem_keys.h"

namespace ppsim {

namespace {

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t from = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(from, i - from));
      from = i + 1;
    }
  }
  return parts;
}

Error Bad(ErrorCode code, std::string_view item, const std::string& why) {
  return Error::Field(code, "costs", ": '" + std::string(item) + "': " + why);
}

}  // namespace

Error ApplyCostSpec(std::string_view spec, Costs& costs) {
  Problem p;  // the table stores into a Problem
  p.costs = costs;
  for (std::string_view item : Split(spec, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) return Bad(ErrorCode::kInvalidValue, item, "expected KIND=VALUE, e.g. F=1,B=2");
    const std::string key = "costs." + std::string(item.substr(0, eq));
    if (FindProblemKey(key) == nullptr)
      return Bad(ErrorCode::kUnknownName, item,
                 "unknown kind '" + std::string(item.substr(0, eq)) + "' (known: F, B, W, FB, BW)");
    Error e = SetProblemKey(key, KeyValue::FromText(item.substr(eq + 1)), p);
    if (!e.ok()) return Bad(e.code, item, e.Text());
  }
  costs = std::move(p.costs);
  return Error::Ok();
}

}  // namespace ppsim

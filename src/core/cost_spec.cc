#include "ppsim/cost_spec.h"

#include <charconv>
#include <string>
#include <vector>

namespace ppsim {

bool ParseTick(std::string_view text, Tick& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

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

Error Bad(std::string_view item, const std::string& why) {
  return Fail(ErrorCode::kInvalidValue, "--cost: '" + std::string(item) + "': " + why);
}

}  // namespace

Error ApplyCostSpec(std::string_view spec, Costs& costs) {
  for (std::string_view item : Split(spec, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) return Bad(item, "expected KIND=VALUE, e.g. F=1,B=2");
    const std::string_view kind = item.substr(0, eq);
    std::vector<Tick>* target = kind == "F"    ? &costs.f
                                : kind == "B"  ? &costs.b
                                : kind == "W"  ? &costs.w
                                : kind == "FB" ? &costs.fb
                                : kind == "BW" ? &costs.bw
                                               : nullptr;
    if (target == nullptr) return Bad(item, "unknown kind '" + std::string(kind) + "' (known: F, B, W, FB, BW)");
    std::vector<Tick> values;
    for (std::string_view v : Split(item.substr(eq + 1), ':')) {
      Tick t = 0;
      if (!ParseTick(v, t)) {
        const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string_view::npos;
        return Bad(item, digits ? "'" + std::string(v) + "' overflows a 64-bit tick count"
                                : "'" + std::string(v) + "' is not a whole number of ticks");
      }
      if (t <= 0) return Bad(item, "costs must be ≥ 1 tick, got " + std::to_string(t));
      if (t > kMaxCost) return Bad(item, "cost " + std::to_string(t) + " exceeds the limit " + std::to_string(kMaxCost));
      values.push_back(t);
    }
    *target = std::move(values);
  }
  return Error{ErrorCode::kOk, ""};
}

}  // namespace ppsim

#include "claims_json.h"

namespace ppsim::io {

nlohmann::json ClaimValueJson(const ClaimValue& v) {
  if (v.is_truth) return v.truth;
  if (v.number.integral()) return v.number.num();
  return v.number.ToString();
}

nlohmann::json ClaimResultJson(const ClaimResult& r) {
  nlohmann::json values = nlohmann::json::object();
  for (const NamedValue& v : r.values) values[v.name] = ClaimValueJson(v.value);
  nlohmann::json j = {{"check", r.check}, {"holds", r.holds}, {"values", values}};
  if (r.divergence) {
    const Divergence& d = *r.divergence;
    j["first_ahead"] = {{"tick", d.tick},
                        {"ahead", d.ahead},
                        {"behind", d.behind},
                        {"ahead_done", d.ahead_done},
                        {"behind_done", d.behind_done}};
  }
  return j;
}

}  // namespace ppsim::io

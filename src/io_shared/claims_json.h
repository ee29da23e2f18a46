// Claim results as JSON (the `ppsim check --json` shape, docs/claims.md):
//   {"check": "...", "holds": bool, "values": {"makespan(GPipe)": 18, "(P-1)/M": "1/2"},
//    "first_ahead": {"tick": 11, "ahead": "1F1B", "behind": "GPipe", "ahead_done": 9, "behind_done": 8}}
// A value is a JSON integer when it is a whole number, true/false for a
// truth value, and otherwise the exact fraction as a string "p/q".
#pragma once

#include <nlohmann/json.hpp>

#include "ppsim/claims.h"

namespace ppsim::io {

nlohmann::json ClaimValueJson(const ClaimValue& value);
nlohmann::json ClaimResultJson(const ClaimResult& result);

}  // namespace ppsim::io

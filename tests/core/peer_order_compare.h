// Reads tests/data/peers_public.json (per-rank orders recorded from the
// projects' own schedule code) and compares an entry with ppsim's order.
//
// The file writes ops as <kind><microbatch>s<stage>: F, B (full backward),
// I (input gradient only), W, and "(F..;B..)" for one overlapped call.
// In ppsim's names I is B of a split schedule and a full B is B of a
// schedule without W; "(F3@s0;B0@s2)" is a pair.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "ppsim/schedule.h"

namespace ppsim::peers {

// The entries whose "schedule" starts with `prefix`.
inline std::vector<nlohmann::json> Entries(const std::string& prefix) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/peers_public.json");
  EXPECT_TRUE(in) << "cannot read tests/data/peers_public.json";
  std::vector<nlohmann::json> out;
  if (!in) return out;
  const nlohmann::json doc = nlohmann::json::parse(in);
  for (const nlohmann::json& e : doc.at("entries"))
    if (e.at("schedule").get<std::string>().rfind(prefix, 0) == 0) out.push_back(e);
  return out;
}

// "I3s1" -> "B3@s1" (`split`: I is B, and B must not appear).
inline std::string OurName(const std::string& op, bool split) {
  const size_t s = op.find('s');
  if (op.size() < 4 || s == std::string::npos) {
    ADD_FAILURE() << "bad op '" << op << "'";
    return op;
  }
  char kind = op[0];
  if (kind == 'I') {
    EXPECT_TRUE(split) << op << ": an input-gradient pass in a schedule without W";
    kind = 'B';
  } else if (kind == 'B') {
    EXPECT_FALSE(split) << op << ": a full backward in a split schedule";
  }
  return kind + op.substr(1, s - 1) + "@s" + op.substr(s + 1);
}

inline std::vector<std::string> Theirs(const nlohmann::json& rank, bool split) {
  std::vector<std::string> out;
  for (const std::string text : rank) {
    if (text.front() == '(') {
      const size_t semi = text.find(';');
      out.push_back("(" + OurName(text.substr(1, semi - 1), split) + ";" +
                    OurName(text.substr(semi + 1, text.size() - semi - 2), split) + ")");
    } else {
      out.push_back(OurName(text, split));
    }
  }
  return out;
}

inline std::vector<std::string> Ours(const Schedule& s, int device) {
  std::vector<std::string> out;
  for (const Slot& slot : s.devices[device])
    out.push_back(slot.pair() ? "(" + OpName(s.space.At(slot.op)) + ";" + OpName(s.space.At(slot.overlapped)) + ")"
                              : OpName(s.space.At(slot.op)));
  return out;
}

// "" if equal, else where the first difference is, with some context.
inline std::string FirstDifference(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  if (i == want.size() && i == got.size()) return "";
  auto around = [i](const std::vector<std::string>& v) {
    std::string out;
    for (size_t k = i >= 3 ? i - 3 : 0; k < std::min(v.size(), i + 4); ++k)
      out += (k == i ? "[" : "") + v[k] + (k == i ? "] " : " ");
    return out;
  };
  return "first difference at op " + std::to_string(i) + "\n  reference: " + around(want) +
         "\n  ppsim:     " + around(got);
}

}  // namespace ppsim::peers

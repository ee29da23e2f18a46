// The one reader of the recorded peer orders in tests/data/ (see its
// README) for every peer test: pytorch_orders_public.json (PyTorch) and
// peers_public.json (DeepSeek, Megatron-LM, the Zero Bubble team).
//
// Both files name ops `<kind><microbatch>s<virtual stage>`: `F3s1` forward,
// `B3s1` full backward, `I3s1` input-gradient pass, `W3s1` its weight-
// gradient pass, `(F3s0;B5s7)` one overlapped F+B call; PyTorch suffixes a
// pair with OVERLAP_F_B, which RecordedOrder drops. ppsim's order is written
// in the same notation (PeerOrder), so a full backward (Slot::full, or any B
// of a schedule without W) must be recorded as B and an input-gradient pass
// as I for the two to be equal.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "ppsim/schedule.h"

namespace ppsim::testing {

// Every entry of tests/data/<file> (a test failure if it cannot be read).
inline std::vector<nlohmann::json> DataEntries(const std::string& file) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/" + file);
  EXPECT_TRUE(in) << "cannot read tests/data/" << file;
  if (!in) return {};
  const nlohmann::json doc = nlohmann::json::parse(in);
  return doc.at("entries").get<std::vector<nlohmann::json>>();
}

// The entries of peers_public.json whose "schedule" starts with `prefix`.
inline std::vector<nlohmann::json> PeerEntries(const std::string& prefix) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& e : DataEntries("peers_public.json"))
    if (e.at("schedule").get<std::string>().rfind(prefix, 0) == 0) out.push_back(e);
  return out;
}

// One op of a slot as the peers name it: a ppsim B is `I` in a split
// schedule unless the slot runs it as a full backward.
inline std::string PeerOpName(const Schedule& s, OpId id, bool full) {
  const Op op = s.space.At(id);
  char kind = KindChar(op.kind);
  if (op.kind == OpKind::kB && s.split_backward && !full) kind = 'I';
  return kind + std::to_string(op.microbatch) + "s" + std::to_string(op.stage);
}

// Device `device`'s queue in the peers' notation.
inline std::vector<std::string> PeerOrder(const Schedule& s, int device) {
  std::vector<std::string> out;
  for (const Slot& slot : s.devices[device]) {
    if (slot.pair())
      out.push_back("(" + PeerOpName(s, slot.op, slot.full) + ";" + PeerOpName(s, slot.overlapped, slot.full) + ")");
    else
      out.push_back(PeerOpName(s, slot.op, slot.full));
  }
  return out;
}

// A recorded rank's order with PyTorch's OVERLAP_F_B suffix dropped.
inline std::vector<std::string> RecordedOrder(const nlohmann::json& rank) {
  std::vector<std::string> out;
  for (std::string op : rank.get<std::vector<std::string>>()) {
    const size_t close = op.find(')');
    if (close != std::string::npos) op.erase(close + 1);
    out.push_back(op);
  }
  return out;
}

// "" if equal, else where they first differ with a few ops around it.
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
  return "first difference at op " + std::to_string(i) + "\n  recorded: " + around(want) + "\n  ppsim:    " +
         around(got);
}

// Expects `s` (for `p`, as the generator adjusted it) to place every stage
// where the entry's `placement_key` says and to run every rank's recorded
// order op for op.
inline void ExpectRecordedOrders(const nlohmann::json& entry, const Problem& p, const Schedule& s,
                                 const std::string& label, const char* placement_key = "placement") {
  const std::vector<int> placement = entry.at(placement_key);
  ASSERT_EQ(static_cast<int>(placement.size()), p.stages()) << label;
  for (int st = 0; st < p.stages(); ++st) EXPECT_EQ(p.DeviceOf(st), placement[st]) << label << " stage " << st;
  const nlohmann::json& ranks = entry.at("ranks");
  ASSERT_EQ(static_cast<int>(ranks.size()), p.P) << label;
  for (int d = 0; d < p.P; ++d) {
    const std::string diff = FirstDifference(RecordedOrder(ranks[d]), PeerOrder(s, d));
    EXPECT_EQ(diff, "") << label << ", device " << d << ": " << diff;
  }
}

}  // namespace ppsim::testing

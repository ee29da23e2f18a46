// Per-rank orders in the notation of tests/data/*.json (see its README):
// `F3s1` forward, `B3s1` full backward, `I3s1` input-gradient pass, `W3s1`
// its weight-gradient pass, `(F3s0;B5s7)` one overlapped F+B call. PyTorch
// suffixes a pair with OVERLAP_F_B; PeerOrder drops it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ppsim/schedule.h"

namespace ppsim::testing {

// One op of `slot` as the peers name it: a ppsim B is `I` in a split
// schedule unless the slot runs it as a full backward.
inline std::string PeerOpName(const Schedule& s, OpId id, bool full) {
  const Op op = s.space.At(id);
  char kind = KindChar(op.kind);
  if (op.kind == OpKind::kB && s.split_backward && !full) kind = 'I';
  return kind + std::to_string(op.microbatch) + "s" + std::to_string(op.stage);
}

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
inline std::vector<std::string> RecordedOrder(const std::vector<std::string>& rank) {
  std::vector<std::string> out;
  for (std::string op : rank) {
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

}  // namespace ppsim::testing

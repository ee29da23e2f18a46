#include "ppsim/io/pytorch_lowering.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_set>

#include "ppsim/io/pytorch_csv.h"

namespace ppsim::io {
namespace {

const char* TypeText(PtType t) {
  switch (t) {
    case PtType::kF: return "F";
    case PtType::kI: return "I";
    case PtType::kW: return "W";
    case PtType::kB: return "B";
    case PtType::kUnshard: return "UNSHARD";
    case PtType::kReshard: return "RESHARD";
    case PtType::kSendF: return "SEND_F";
    case PtType::kRecvF: return "RECV_F";
    case PtType::kSendB: return "SEND_B";
    case PtType::kRecvB: return "RECV_B";
    case PtType::kOverlapFB: return "OVERLAP_F_B";
    case PtType::kReduceGrad: return "REDUCE_GRAD";
  }
  return "?";
}

// A pair's halves, or the action itself.
std::vector<const PtAction*> Leaves(const PtAction& a) {
  std::vector<const PtAction*> out;
  if (a.type == PtType::kOverlapFB)
    for (const PtAction& s : a.subs) out.push_back(&s);
  else
    out.push_back(&a);
  return out;
}

// Step 1. The next `count` distinct stages from `from` on; a pair adds both
// halves' stages before the count is checked, as PyTorch's does.
std::vector<int> NextStages(const std::vector<PtAction>& actions, size_t from, size_t count) {
  std::vector<int> out;
  auto add = [&](int s) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (size_t i = from; i < actions.size() && out.size() < count; ++i) {
    if (actions[i].type == PtType::kOverlapFB)
      for (const PtAction& s : actions[i].subs) add(s.stage);
    else
      add(actions[i].stage);
  }
  return out;
}

std::vector<PtAction> AddUnshardReshard(const std::vector<PtAction>& actions) {
  constexpr size_t kMaxActiveStages = 3;  // PyTorch's default
  std::vector<PtAction> out;
  std::set<int> active;  // ascending: see the header
  for (size_t i = 0; i < actions.size(); ++i) {
    const std::vector<int> next = NextStages(actions, i, kMaxActiveStages);
    std::vector<int> evict;
    for (int s : active)
      if (std::find(next.begin(), next.end(), s) == next.end()) evict.push_back(s);
    for (int s : evict) {
      active.erase(s);
      out.push_back({s, PtType::kReshard, -1, {}});
    }
    for (int s : next)
      if (active.insert(s).second) out.push_back({s, PtType::kUnshard, -1, {}});
    out.push_back(actions[i]);
  }
  for (int s : active) out.push_back({s, PtType::kReshard, -1, {}});
  return out;
}

// Step 2.
std::vector<PtAction> AddReduceGrad(const std::vector<PtAction>& actions, int microbatches) {
  std::vector<PtAction> out;
  std::vector<int> count;
  for (const PtAction& a : actions) {
    out.push_back(a);
    for (const PtAction* leaf : Leaves(a)) {
      if (leaf->type != PtType::kW && leaf->type != PtType::kB) continue;
      if (static_cast<size_t>(leaf->stage) >= count.size()) count.resize(leaf->stage + 1, 0);
      if (++count[leaf->stage] == microbatches) out.push_back({leaf->stage, PtType::kReduceGrad, -1, {}});
    }
  }
  return out;
}

// Step 3.
class SendRecv {
 public:
  SendRecv(const std::vector<int>& stage_to_rank) : rank_of_(stage_to_rank), last_(stage_to_rank.size() - 1) {}

  Result<std::vector<std::vector<PtAction>>> Run(const std::vector<std::vector<PtAction>>& ranks) {
    std::vector<std::vector<PtAction>> out(ranks.size());
    std::vector<std::unordered_set<std::uint64_t>> seen(ranks.size());
    std::vector<size_t> at(ranks.size(), 0);
    for (bool left = true; left;) {
      bool progress = false;
      left = false;
      for (size_t r = 0; r < ranks.size(); ++r) {
        if (at[r] == ranks[r].size()) continue;
        const PtAction& action = ranks[r][at[r]];
        const std::vector<const PtAction*> leaves = Leaves(action);
        if (!std::all_of(leaves.begin(), leaves.end(), [&](const PtAction* a) { return Ready(*a, seen[r]); })) {
          left = true;
          continue;
        }
        out[r].push_back(action);
        for (const PtAction* a : leaves) {
          seen[r].insert(Key(*a));
          if (!HasComms(*a)) continue;
          const bool forward = a->type == PtType::kF;
          const PtAction send{a->stage, forward ? PtType::kSendF : PtType::kSendB, a->microbatch, {}};
          const PtAction recv{a->stage + (forward ? 1 : -1), forward ? PtType::kRecvF : PtType::kRecvB, a->microbatch, {}};
          out[r].push_back(send);
          seen[r].insert(Key(send));
          const size_t to = static_cast<size_t>(rank_of_[recv.stage]);
          out[to].push_back(recv);
          seen[to].insert(Key(recv));
        }
        progress = true;
        if (++at[r] < ranks[r].size()) left = true;
      }
      if (left && !progress) return Stuck(ranks, at);
    }
    return out;
  }

 private:
  static std::uint64_t Key(int stage, PtType type, int mb) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(stage)) << 32) |
           (static_cast<std::uint64_t>(type) << 24) | static_cast<std::uint32_t>(mb + 1);
  }
  static std::uint64_t Key(const PtAction& a) { return Key(a.stage, a.type, a.microbatch); }

  bool OnOtherRank(int stage, int other) const { return rank_of_[other] != rank_of_[stage]; }

  bool HasComms(const PtAction& a) const {
    if (a.type == PtType::kF) return a.stage != last_ && OnOtherRank(a.stage, a.stage + 1);
    if (a.type == PtType::kI || a.type == PtType::kB) return a.stage != 0 && OnOtherRank(a.stage, a.stage - 1);
    return false;
  }

  // Its input received on this rank, or produced here (a neighbour on the same rank).
  bool Ready(const PtAction& a, const std::unordered_set<std::uint64_t>& seen) const {
    const int s = a.stage, m = a.microbatch;
    if (a.type == PtType::kF && s != 0)
      return seen.count(Key(s, PtType::kRecvF, m)) || seen.count(Key(s - 1, PtType::kF, m));
    if ((a.type == PtType::kI || a.type == PtType::kB) && s != last_)
      return seen.count(Key(s, PtType::kRecvB, m)) || seen.count(Key(s + 1, PtType::kI, m)) ||
             seen.count(Key(s + 1, PtType::kB, m));
    return true;
  }

  static Error Stuck(const std::vector<std::vector<PtAction>>& ranks, const std::vector<size_t>& at) {
    std::string waits;
    for (size_t r = 0; r < ranks.size(); ++r) {
      if (at[r] == ranks[r].size()) continue;
      waits += (waits.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + " waits to place " +
               PtActionText(ranks[r][at[r]]);
    }
    return Fail(ErrorCode::kDeadlock,
                "cannot lower to PyTorch's runtime order (its \"Malformed compute schedule\"): no rank can go on, "
                "each next action's input is neither received nor local: " + waits);
  }

  const std::vector<int>& rank_of_;
  int last_;
};

PtType TypeOf(char c) {
  return c == 'F' ? PtType::kF : c == 'I' ? PtType::kI : c == 'W' ? PtType::kW : PtType::kB;
}

}  // namespace

std::string PtActionText(const PtAction& a) {
  if (a.type == PtType::kOverlapFB) {
    std::string s = "(";
    for (size_t i = 0; i < a.subs.size(); ++i) s += (i ? ";" : "") + PtActionText(a.subs[i]);
    return s + ")" + TypeText(a.type);
  }
  return std::to_string(a.stage) + TypeText(a.type) + (a.microbatch >= 0 ? std::to_string(a.microbatch) : "");
}

Result<std::vector<std::vector<PtAction>>> LowerWithComms(const std::vector<std::vector<PtAction>>& compute,
                                                          const std::vector<int>& stage_to_rank, int microbatches) {
  std::vector<std::vector<PtAction>> ranks;
  for (const std::vector<PtAction>& actions : compute)
    ranks.push_back(AddReduceGrad(AddUnshardReshard(actions), microbatches));
  return SendRecv(stage_to_rank).Run(ranks);
}

Result<std::string> WritePytorchCommsCsv(const Problem& problem, const Schedule& schedule) {
  Result<PytorchCsv> csv = PytorchCsvFromSchedule(schedule);
  if (!csv) return csv.error();
  std::vector<std::vector<PtAction>> compute;
  for (const std::vector<CsvCell>& row : csv->rows) {
    std::vector<PtAction>& actions = compute.emplace_back();
    for (const CsvCell& cell : row) {
      std::vector<PtAction> halves;
      for (const CsvAction& a : cell.actions) halves.push_back({a.stage, TypeOf(a.type), a.microbatch, {}});
      if (halves.size() == 1) actions.push_back(halves[0]);
      if (halves.size() == 2) actions.push_back({-1, PtType::kOverlapFB, -1, std::move(halves)});
    }
  }
  std::vector<int> stage_to_rank;
  for (int s = 0; s < problem.stages(); ++s) stage_to_rank.push_back(problem.DeviceOf(s));
  Result<std::vector<std::vector<PtAction>>> lowered = LowerWithComms(compute, stage_to_rank, problem.M);
  if (!lowered) return lowered.error();
  std::string out;
  for (const std::vector<PtAction>& row : *lowered) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + PtActionText(row[i]);
    out += "\r\n";
  }
  return out;
}

}  // namespace ppsim::io

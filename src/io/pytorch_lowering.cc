#include "ppsim/io/pytorch_lowering.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <unordered_set>

namespace ppsim::io {
namespace {

using Cells = std::vector<CsvCell>;

CsvCell One(int stage, ActionType type, int microbatch) { return CsvCell{{CsvAction{stage, type, microbatch}}}; }

// Step 1. The next `count` distinct stages from `from` on; a pair adds both
// halves' stages before the count is checked, as PyTorch's does.
std::vector<int> NextStages(const Cells& cells, size_t from, size_t count) {
  std::vector<int> out;
  for (size_t i = from; i < cells.size() && out.size() < count; ++i)
    for (const CsvAction& a : cells[i].actions)
      if (std::find(out.begin(), out.end(), a.stage) == out.end()) out.push_back(a.stage);
  return out;
}

Cells AddUnshardReshard(const Cells& cells) {
  constexpr size_t kMaxActiveStages = 3;  // PyTorch's default
  Cells out;
  std::set<int> active;  // ascending: see the header
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::vector<int> next = NextStages(cells, i, kMaxActiveStages);
    std::vector<int> evict;
    for (int s : active)
      if (std::find(next.begin(), next.end(), s) == next.end()) evict.push_back(s);
    for (int s : evict) {
      active.erase(s);
      out.push_back(One(s, ActionType::kReshard, -1));
    }
    for (int s : next)
      if (active.insert(s).second) out.push_back(One(s, ActionType::kUnshard, -1));
    out.push_back(cells[i]);
  }
  for (int s : active) out.push_back(One(s, ActionType::kReshard, -1));
  return out;
}

// Step 2.
Cells AddReduceGrad(const Cells& cells, int microbatches) {
  Cells out;
  std::vector<int> count;
  for (const CsvCell& cell : cells) {
    out.push_back(cell);
    for (const CsvAction& a : cell.actions) {
      if (a.type != ActionType::kW && a.type != ActionType::kB) continue;
      if (static_cast<size_t>(a.stage) >= count.size()) count.resize(a.stage + 1, 0);
      if (++count[a.stage] == microbatches) out.push_back(One(a.stage, ActionType::kReduceGrad, -1));
    }
  }
  return out;
}

// Step 3.
class SendRecv {
 public:
  explicit SendRecv(const std::vector<int>& stage_to_rank)
      : rank_of_(stage_to_rank), last_(static_cast<int>(stage_to_rank.size()) - 1) {}

  Result<PytorchCsv> Run(const std::vector<Cells>& ranks) const {
    PytorchCsv out;
    out.rows.resize(ranks.size());
    std::vector<std::unordered_set<std::uint64_t>> seen(ranks.size());
    std::vector<size_t> at(ranks.size(), 0);
    for (bool left = true; left;) {
      bool progress = false;
      left = false;
      for (size_t r = 0; r < ranks.size(); ++r) {
        if (at[r] == ranks[r].size()) continue;
        const CsvCell& cell = ranks[r][at[r]];
        const auto ready = [&](const CsvAction& a) { return Ready(a, seen[r]); };
        if (!std::all_of(cell.actions.begin(), cell.actions.end(), ready)) {
          left = true;
          continue;
        }
        out.rows[r].push_back(cell);
        for (const CsvAction& a : cell.actions) {
          seen[r].insert(Key(a));
          if (!HasComms(a)) continue;
          const bool forward = a.type == ActionType::kF;
          const CsvAction send{a.stage, forward ? ActionType::kSendF : ActionType::kSendB, a.microbatch};
          const CsvAction recv{a.stage + (forward ? 1 : -1), forward ? ActionType::kRecvF : ActionType::kRecvB,
                               a.microbatch};
          out.rows[r].push_back(CsvCell{{send}});
          seen[r].insert(Key(send));
          const size_t to = static_cast<size_t>(rank_of_[recv.stage]);
          out.rows[to].push_back(CsvCell{{recv}});
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
  static std::uint64_t Key(int stage, ActionType type, int mb) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(stage)) << 32) |
           (static_cast<std::uint64_t>(type) << 24) | static_cast<std::uint32_t>(mb + 1);
  }
  static std::uint64_t Key(const CsvAction& a) { return Key(a.stage, a.type, a.microbatch); }

  bool Crosses(int stage, int other) const { return rank_of_[other] != rank_of_[stage]; }

  bool HasComms(const CsvAction& a) const {
    if (a.type == ActionType::kF) return a.stage != last_ && Crosses(a.stage, a.stage + 1);
    if (a.type == ActionType::kI || a.type == ActionType::kB) return a.stage != 0 && Crosses(a.stage, a.stage - 1);
    return false;
  }

  // Its input received on this rank, or produced here (a neighbour on the same rank).
  bool Ready(const CsvAction& a, const std::unordered_set<std::uint64_t>& seen) const {
    const int s = a.stage, m = a.microbatch;
    if (a.type == ActionType::kF && s != 0)
      return seen.count(Key(s, ActionType::kRecvF, m)) || seen.count(Key(s - 1, ActionType::kF, m));
    if ((a.type == ActionType::kI || a.type == ActionType::kB) && s != last_)
      return seen.count(Key(s, ActionType::kRecvB, m)) || seen.count(Key(s + 1, ActionType::kI, m)) ||
             seen.count(Key(s + 1, ActionType::kB, m));
    return true;
  }

  static Error Stuck(const std::vector<Cells>& ranks, const std::vector<size_t>& at) {
    std::string waits;
    for (size_t r = 0; r < ranks.size(); ++r) {
      if (at[r] == ranks[r].size()) continue;
      waits += (waits.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + " waits to place " +
               PytorchCellText(ranks[r][at[r]]);
    }
    return Fail(ErrorCode::kDeadlock,
                "cannot lower to PyTorch's runtime order (its \"Malformed compute schedule\"): no rank can go on, "
                "each next action's input is neither received nor local: " + waits);
  }

  const std::vector<int>& rank_of_;
  int last_;
};

}  // namespace

Result<PytorchCsv> LowerWithComms(const PytorchCsv& compute, const std::vector<int>& stage_to_rank, int microbatches) {
  std::vector<Cells> ranks;
  for (const Cells& row : compute.rows) {
    Cells busy;  // idle cells only delay: PyTorch's lowering skips them
    for (const CsvCell& cell : row)
      if (!cell.actions.empty()) busy.push_back(cell);
    ranks.push_back(AddReduceGrad(AddUnshardReshard(busy), microbatches));
  }
  return SendRecv(stage_to_rank).Run(ranks);
}

Result<std::string> WritePytorchCommsCsv(const Problem& problem, const Schedule& schedule) {
  Result<PytorchCsv> csv = PytorchCsvFromSchedule(schedule);
  if (!csv) return csv.error();
  std::vector<int> stage_to_rank;
  for (int s = 0; s < problem.stages(); ++s) stage_to_rank.push_back(problem.DeviceOf(s));
  Result<PytorchCsv> lowered = LowerWithComms(*csv, stage_to_rank, problem.M);
  if (!lowered) return lowered.error();
  return FormatPytorchCsv(*lowered);
}

}  // namespace ppsim::io

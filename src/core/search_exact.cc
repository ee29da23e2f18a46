#include "search_exact.h"

#include <algorithm>
#include <vector>

#include "schedule_builder.h"
#include "ppsim/placement.h"

namespace ppsim::search {
namespace {

class BranchAndBound {
 public:
  explicit BranchAndBound(Context& c) : c_(c), p_(c.problem()), space_(p_.Space()) {
    const int S = p_.stages();
    n_ = static_cast<int>(space_.size());
    end_.assign(n_, -1);
    dur_.assign(n_, 0);
    tail_.assign(n_, 0);
    free_.assign(p_.P, 0);
    held_.assign(p_.P, 0);
    work_.assign(p_.P, 0);
    order_.resize(p_.P);
    for (OpId id = 0; id < n_; ++id) {
      const Op op = space_.At(id);
      dur_[id] = p_.costs.Of(op.kind, op.stage);
      work_[p_.DeviceOf(op.stage)] += dur_[id];
    }
    // tail_[id]: the longest chain from the start of `id` to the end (its own duration included).
    for (int s = 0; s < S; ++s) tail_[space_.Id(OpKind::kW, 0, s)] = dur_[space_.Id(OpKind::kW, 0, s)];
    for (int s = 0; s < S; ++s) {
      const OpId b = space_.Id(OpKind::kB, 0, s);
      Tick t = dur_[space_.Id(OpKind::kW, 0, s)];
      if (s > 0) t = std::max(t, p_.CommBetween(s - 1, s) + tail_[space_.Id(OpKind::kB, 0, s - 1)]);
      tail_[b] = dur_[b] + t;
    }
    for (int s = S - 1; s >= 0; --s) {
      const OpId f = space_.Id(OpKind::kF, 0, s);
      const Tick next = s == S - 1 ? tail_[space_.Id(OpKind::kB, 0, s)]
                                   : p_.CommBetween(s, s + 1) + tail_[space_.Id(OpKind::kF, 0, s + 1)];
      tail_[f] = dur_[f] + next;
    }
    for (OpId id = 0; id < n_; ++id) {
      const Op op = space_.At(id);
      tail_[id] = tail_[space_.Id(op.kind, 0, op.stage)];
    }
    dep_.assign(n_, kNoOp);
    lat_.assign(n_, 0);
    for (OpId id = 0; id < n_; ++id) {
      dep_[id] = DependencyOf(space_, true, id);
      if (dep_[id] == kNoOp) continue;
      const Op a = space_.At(dep_[id]), b = space_.At(id);
      lat_[id] = a.kind == b.kind ? p_.CommBetween(a.stage, b.stage) : 0;
    }
  }

  bool Run() {
    aborted_ = false;
    Dfs(0, -1, -1, false);
    return !aborted_;
  }

 private:
  Tick Ready(OpId id) const { return dep_[id] == kNoOp ? 0 : end_[dep_[id]] + lat_[id]; }

  bool Placeable(OpId id) const {
    if (end_[id] >= 0) return false;
    if (dep_[id] != kNoOp && end_[dep_[id]] < 0) return false;
    const Op op = space_.At(id);
    if (op.kind == OpKind::kF && op.stage == 0 && op.microbatch > 0 &&
        end_[space_.Id(OpKind::kF, op.microbatch - 1, 0)] < 0)
      return false;
    // F needs room for its set; with recompute, B (R then B) for what F did not keep.
    const int d = p_.DeviceOf(op.stage);
    return held_[d] + TakenAt(c_.budget(), op.kind, op.stage, false) <= c_.budget().capacity[d];
  }

  // A bound on the makespan of every completion of the current node.
  Tick Bound(Tick now) const {
    Tick bound = 0;
    for (int d = 0; d < p_.P; ++d)
      if (work_[d] > 0) bound = std::max(bound, std::max(free_[d], now) + work_[d]);
    for (OpId id = 0; id < n_; ++id)
      if (end_[id] < 0 && (dep_[id] == kNoOp || end_[dep_[id]] >= 0))
        bound = std::max(bound, std::max(Ready(id), now) + tail_[id]);
    return bound;
  }

  // `after_zero`: the op placed last took no time (an empty stage's).
  void Dfs(int placed, Tick last_start, int last_device, bool after_zero) {
    if (aborted_) return;
    c_.CountNode();
    if (c_.Stop()) {
      aborted_ = !c_.Proven();
      return;
    }
    if (placed == n_) {
      Record();
      return;
    }
    if (c_.best_makespan() != kNone && Bound(std::max<Tick>(last_start, 0)) >= c_.best_makespan()) return;
    struct Branch {
      Tick start;
      int device;
      OpId id;
    };
    std::vector<Branch> branches;
    for (OpId id = 0; id < n_; ++id) {
      if (!Placeable(id)) continue;
      const int d = p_.DeviceOf(space_.At(id).stage);
      const Tick start = std::max(free_[d], Ready(id));
      // Ops go by start tick, ties by device; after an op of no duration any
      // op may start at the same tick (it may need that op, or its device).
      if (start < last_start || (start == last_start && d <= last_device && !after_zero)) continue;
      branches.push_back({start, d, id});
    }
    std::sort(branches.begin(), branches.end(), [&](const Branch& a, const Branch& b) {
      if (a.start != b.start) return a.start < b.start;
      return a.id < b.id;
    });
    for (const Branch& br : branches) {
      Apply(br.id, br.device, br.start, +1);
      Dfs(placed + 1, br.start, br.device, dur_[br.id] == 0);
      Apply(br.id, br.device, br.start, -1);
      if (aborted_) return;
    }
  }

  void Apply(OpId id, int d, Tick start, int sign) {
    const Op op = space_.At(id);
    const std::int64_t delta = HeldChange(c_.budget(), op.kind, op.stage, false);
    if (sign > 0) {
      saved_free_.push_back(free_[d]);
      end_[id] = start + dur_[id];
      free_[d] = end_[id];
      held_[d] += delta;
      work_[d] -= dur_[id];
      order_[d].push_back({id, kNoOp});
    } else {
      free_[d] = saved_free_.back();
      saved_free_.pop_back();
      end_[id] = -1;
      held_[d] -= delta;
      work_[d] += dur_[id];
      order_[d].pop_back();
    }
  }

  void Record() {
    Schedule s = EmptySchedule(p_);
    s.name = "search";
    s.split_backward = true;
    s.devices = order_;
    c_.Consider(s, "exact");
  }

  Context& c_;
  const Problem& p_;
  OpSpace space_;
  int n_ = 0;
  std::vector<Tick> end_, dur_, tail_, free_, saved_free_, work_;
  std::vector<std::int64_t> held_;
  std::vector<OpId> dep_;
  std::vector<Tick> lat_;
  std::vector<std::vector<Slot>> order_;
  bool aborted_ = false;
};

}  // namespace

bool ExactSearch(Context& context) { return BranchAndBound(context).Run(); }

}  // namespace ppsim::search

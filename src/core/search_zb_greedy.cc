#include "search_zb_greedy.h"

#include <algorithm>

#include "schedule_builder.h"

namespace ppsim::search {
namespace {

class ZbGreedy {
 public:
  ZbGreedy(const Problem& p, const Budget& b, const ZbGreedyVariant& v)
      : p_(p), b_(b), v_(v), P_(p.P), M_(p.M), space_(p.Space()) {
    count_.assign(3 * P_, 0);
    end_.assign(P_, 0);
    mem_.assign(P_, 0);
    bubble_.assign(P_, 0);
    t_.assign(space_.size(), 0);
    s_ = EmptySchedule(p);
    s_.split_backward = true;
    s_.name = "zb-auto";
  }

  // False when a forward cannot fit the budget (the tool's "Cannot fit memory").
  bool Run(Schedule& out) {
    for (int i = 0; i < M_; ++i)
      if (!(i == 0 ? First() : Step(i))) return false;
    for (int j = 0; j < P_; ++j)
      while (N(OpKind::kW, j) < M_) Put(j, OpKind::kW);
    out = std::move(s_);
    return true;
  }

 private:
  int& N(OpKind k, int j) { return count_[static_cast<int>(k) * P_ + j]; }
  Tick Cost(OpKind k, int j) const { return p_.costs.Of(k, j); }
  std::int64_t Mem(OpKind k, int j) const {
    if (k == OpKind::kF) return b_.units[j];
    if (k == OpKind::kB) return -b_.by_b[j];
    return -(b_.units[j] - b_.by_b[j]);
  }
  Tick T(OpKind k, int j, int m) const { return t_[space_.Id(k, m, j)]; }
  Tick Comm(int j) const { return p_.CommBetween(j, j + 1); }  // between stages j and j+1
  Tick MaxBubble() const { return *std::max_element(bubble_.begin(), bubble_.end()); }
  std::int64_t Cap(int j) const { return b_.capacity[j]; }

  void Put(int j, OpKind k) {
    const int m = N(k, j);
    const Tick cost = Cost(k, j);
    Tick tmp = end_[j] + cost;
    const Tick no_bubble = tmp;
    if (j > 0 && k == OpKind::kF) tmp = std::max(tmp, T(OpKind::kF, j - 1, m) + p_.CommBetween(j - 1, j) + cost);
    if (j < P_ - 1 && k == OpKind::kB) tmp = std::max(tmp, T(OpKind::kB, j + 1, m) + Comm(j) + cost);
    if (N(OpKind::kF, j) > 0) bubble_[j] += tmp - no_bubble;
    end_[j] = tmp;
    t_[space_.Id(k, m, j)] = tmp;
    mem_[j] += Mem(k, j);
    ++N(k, j);
    QueueBuilder(s_, j).Add(k, m, j);
  }

  // Microbatch 0: its forward everywhere, the warm-up forwards, its backward.
  bool First() {
    for (int j = 0; j < P_; ++j) Put(j, OpKind::kF);
    std::vector<int> req(P_, 0);
    Tick last_t = 0;
    for (int j = P_ - 1; j >= 0; --j) {
      if (j == P_ - 1) {
        last_t = T(OpKind::kF, j, 0) + Cost(OpKind::kB, j);
        continue;
      }
      std::int64_t mem = mem_[j];
      Tick cost = end_[j];
      const Tick comm = Comm(j);
      while (N(OpKind::kF, j) + req[j] < M_ && mem + Mem(OpKind::kF, j) <= Cap(j)) {
        if (v_.allow_bubble_before_first_b ? cost + Cost(OpKind::kF, j) > last_t + comm : cost >= last_t + comm) break;
        mem += Mem(OpKind::kF, j);
        cost += Cost(OpKind::kF, j);
        ++req[j];
      }
      last_t = std::max(cost, last_t + comm) + Cost(OpKind::kB, j);
    }
    for (int j = 1; j < P_; ++j)
      while (req[j] > 0 && req[j] >= req[j - 1] && N(OpKind::kF, j) + req[j] < M_) --req[j];
    for (int j = 0; j < P_; ++j)
      for (int k = 0; k < req[j]; ++k) Put(j, OpKind::kF);
    for (int j = P_ - 1; j >= 0; --j) Put(j, OpKind::kB);
    return true;
  }

  // Does device j skip its forward this round to let device j+1 catch up?
  bool SkipsForward(int j) {
    if (!(j + 1 < P_ && N(OpKind::kF, j) >= N(OpKind::kF, j + 1) + 2 && v_.prioritize_b)) return false;
    const Tick next_plus_fw = end_[j + 1] + Cost(OpKind::kF, j + 1) + Cost(OpKind::kB, j + 1) + Comm(j);
    if (end_[j] >= next_plus_fw) return true;
    Tick w_cost = 0;
    int w_cnt = 0;
    std::int64_t mem_with_w = mem_[j] + Mem(OpKind::kF, j);
    while (mem_with_w > Cap(j) && N(OpKind::kW, j) + w_cnt < N(OpKind::kB, j)) {
      w_cost += Cost(OpKind::kW, j);
      mem_with_w += Mem(OpKind::kW, j);
      ++w_cnt;
    }
    if (end_[j] + Cost(OpKind::kF, j) + w_cost <= next_plus_fw) return false;
    return next_plus_fw - end_[j] <= MaxBubble() - bubble_[j];
  }

  // W that fit before `arrival` (the tick the next op's input is there).
  void FillWithW(int j, Tick arrival) {
    while (N(OpKind::kW, j) < N(OpKind::kB, j) && end_[j] + Cost(OpKind::kW, j) <= arrival) Put(j, OpKind::kW);
    if (N(OpKind::kW, j) < N(OpKind::kB, j) && end_[j] < arrival) {
      if (arrival - end_[j] > MaxBubble() - bubble_[j] || v_.no_bubble_greedy) Put(j, OpKind::kW);
    }
  }

  bool Step(int i) {
    std::vector<int> req(P_, 0);
    for (int j = 0; j < P_; ++j)
      if (N(OpKind::kF, j) < M_ && !SkipsForward(j)) req[j] = 1;
    for (int j = P_ - 2; j >= 0; --j) req[j] = std::min(req[j], req[j + 1]);
    for (int j = 0; j < P_; ++j) {
      if (req[j] == 0) continue;
      while (mem_[j] + Mem(OpKind::kF, j) > Cap(j)) {
        if (N(OpKind::kW, j) >= N(OpKind::kB, j)) return false;
        Put(j, OpKind::kW);
      }
      if (j > 0) FillWithW(j, T(OpKind::kF, j - 1, N(OpKind::kF, j)) + p_.CommBetween(j - 1, j));
      Put(j, OpKind::kF);
    }
    for (int j = P_ - 1; j >= 0; --j) {
      if (j + 1 < P_) FillWithW(j, T(OpKind::kB, j + 1, i) + Comm(j));
      if (j == 0 && N(OpKind::kF, j) == M_)
        while (N(OpKind::kW, j) < N(OpKind::kB, j)) Put(j, OpKind::kW);
      Put(j, OpKind::kB);
    }
    return true;
  }

  const Problem& p_;
  const Budget& b_;
  ZbGreedyVariant v_;
  int P_, M_;
  OpSpace space_;
  std::vector<int> count_;
  std::vector<Tick> end_, bubble_, t_;
  std::vector<std::int64_t> mem_;
  Schedule s_;
};

}  // namespace

std::vector<Schedule> ZbGreedyOrders(const Problem& p, const Budget& b) {
  std::vector<Schedule> out;
  if (p.v != 1 || p.placement != Placement::kLoop) return out;
  for (int bits = 0; bits < 8; ++bits) {
    const ZbGreedyVariant v{(bits & 4) != 0, (bits & 2) != 0, (bits & 1) != 0};
    Schedule s;
    if (ZbGreedy(p, b, v).Run(s)) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ppsim::search

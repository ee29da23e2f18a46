#include "search_greedy.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "schedule_builder.h"
#include "ppsim/microbatch_lengths.h"

namespace ppsim::search {
namespace {

constexpr Tick kNever = std::numeric_limits<Tick>::max();

struct Candidate {
  OpKind kind;
  int stage;
  int microbatch;
  Tick ready;  // kNever: its dependency is not placed yet
};

class Greedy {
 public:
  Greedy(const Problem& p, const Budget& b, const GreedyRule& r, std::mt19937_64& rng)
      : p_(p), b_(b), r_(r), rng_(rng), space_(p.Space()), S_(p.stages()), weight_(MicrobatchWeights(p)) {
    end_.assign(space_.size(), -1);
    next_.assign(3 * S_, 0);
    free_at_.assign(p.P, 0);
    held_.assign(p.P, 0);
    reserved_.assign(p.P, 0);
    left_.assign(p.P, 0);
    stages_of_.resize(p.P);
    first_stage_.assign(p.P, S_);
    for (int s = 0; s < S_; ++s) {
      const int d = p.DeviceOf(s);
      stages_of_[d].push_back(s);
      first_stage_[d] = std::min(first_stage_[d], s);
      left_[d] += 3 * p.M;
    }
    for (int d = 0; d < p.P; ++d) {
      std::int64_t all = 0;
      for (int s : stages_of_[d]) all += b.units[s];
      microbatch_units_.push_back(all);
      const std::int64_t cap = r.f_cap > 0 ? r.f_cap - d * r.cap_slope : b.capacity[d];
      f_cap_.push_back(std::clamp<std::int64_t>(cap, all, b.capacity[d]));
    }
  }

  bool Run(Schedule& out) {
    out = EmptySchedule(p_);
    out.split_backward = true;
    out.name = "search";
    int remaining = 0;
    for (int d = 0; d < p_.P; ++d) remaining += left_[d] > 0;
    std::vector<Candidate> cands;
    while (remaining > 0) {
      Tick now = kNever;
      for (int d = 0; d < p_.P; ++d)
        if (left_[d] > 0) now = std::min(now, free_at_[d]);
      bool progressed = false;
      Tick next_event = kNever;
      for (int d = 0; d < p_.P; ++d) {
        if (left_[d] == 0) continue;
        if (free_at_[d] > now) { next_event = std::min(next_event, free_at_[d]); continue; }
        Collect(d, cands);
        const Candidate* pick = Choose(d, now, cands, next_event);
        if (pick == nullptr) continue;
        Start(d, *pick, now, out);
        if (left_[d] == 0) --remaining;
        progressed = true;
      }
      if (progressed) continue;
      if (next_event == kNever) return false;  // nothing can ever become ready: memory deadlock
      for (int d = 0; d < p_.P; ++d)
        if (left_[d] > 0 && free_at_[d] == now) free_at_[d] = next_event;
    }
    return true;
  }

 private:
  int& Next(OpKind kind, int s) { return next_[static_cast<int>(kind) * S_ + s]; }

  Tick EndOf(OpKind kind, int m, int s) const { return end_[space_.Id(kind, m, s)]; }
  // Per-microbatch costs (microbatch_lengths.h) scale the stage's cost.
  Tick Duration(OpKind kind, int m, int s) const {
    return p_.costs.Of(kind, s) * (weight_.empty() ? 1 : weight_[m]);
  }

  // The next F, B and W of each of d's stages, with their ready ticks.
  void Collect(int d, std::vector<Candidate>& out) {
    out.clear();
    for (int s : stages_of_[d]) {
      const int f = Next(OpKind::kF, s), b = Next(OpKind::kB, s), w = Next(OpKind::kW, s);
      if (f < p_.M && FitsForward(d, s)) {
        Tick ready = 0;
        if (s > 0) {
          const Tick e = EndOf(OpKind::kF, f, s - 1);
          ready = e < 0 ? kNever : e + p_.CommBetween(s - 1, s);
        }
        out.push_back({OpKind::kF, s, f, ready});
      }
      if (b < f && FitsBackward(d, s)) {
        const Tick e = s == S_ - 1 ? EndOf(OpKind::kF, b, s) : EndOf(OpKind::kB, b, s + 1);
        const Tick lat = s == S_ - 1 ? 0 : p_.CommBetween(s, s + 1);
        out.push_back({OpKind::kB, s, b, e < 0 ? kNever : e + lat});
      }
      if (w < b) out.push_back({OpKind::kW, s, w, EndOf(OpKind::kB, w, s)});
    }
  }

  bool FitsForward(int d, int s) const {
    const bool admits = s == first_stage_[d];
    if (r_.banker) {
      if (!admits) return true;  // its sets were reserved on admission
      return reserved_[d] + microbatch_units_[d] <= f_cap_[d];
    }
    return held_[d] + b_.units[s] <= (admits ? f_cap_[d] : b_.capacity[d]);
  }
  // With recompute, B (R then B) makes its set whole again; always true
  // without, and under the banker's rule (reserved counts whole sets).
  bool FitsBackward(int d, int s) const {
    return r_.banker || held_[d] + TakenAt(b_, OpKind::kB, s, false) <= b_.capacity[d];
  }

  // Rank: kind class by the rule, then older microbatch, then stage order.
  int ClassOf(OpKind k, bool w_first) const {
    if (k == OpKind::kW) return w_first ? 1 : 3;
    return (k == OpKind::kB) == r_.b_before_f ? 0 : 2;
  }
  bool Before(const Candidate& a, const Candidate& b, bool w_first) const {
    const int ca = ClassOf(a.kind, w_first), cb = ClassOf(b.kind, w_first);
    if (ca != cb) return ca < cb;
    if (a.microbatch != b.microbatch && a.kind != OpKind::kF) return a.microbatch < b.microbatch;
    return r_.deep_first ? a.stage > b.stage : a.stage < b.stage;
  }

  // The op d starts at `now`, or nullptr (d idles; next_event updated).
  const Candidate* Choose(int d, Tick now, const std::vector<Candidate>& cands, Tick& next_event) {
    const bool w_first = r_.w_first_at > 0 && held_[d] >= r_.w_first_at;
    const Candidate* best = nullptr;
    int ready = 0;
    for (const Candidate& c : cands) {
      if (c.ready > now) {
        next_event = std::min(next_event, c.ready);
        continue;
      }
      ++ready;
      if (best == nullptr || Before(c, *best, w_first)) best = &c;
    }
    if (best == nullptr) return nullptr;
    if (r_.noise > 0 && ready > 1 && std::uniform_real_distribution<double>(0, 1)(rng_) < r_.noise) {
      int k = static_cast<int>(std::uniform_int_distribution<int>(0, ready - 1)(rng_));
      for (const Candidate& c : cands)
        if (c.ready <= now && k-- == 0) best = &c;
    }
    if (best->kind == OpKind::kW && r_.w_lookahead) {
      // Keep the device free for an F or B that arrives before this W would end.
      const Tick w_end = now + Duration(OpKind::kW, best->microbatch, best->stage);
      for (const Candidate& c : cands)
        if (c.kind != OpKind::kW && c.ready > now && c.ready < w_end) {
          next_event = std::min(next_event, c.ready);
          return nullptr;
        }
    }
    return best;
  }

  void Start(int d, const Candidate& c, Tick now, Schedule& out) {
    const OpId id = space_.Id(c.kind, c.microbatch, c.stage);
    out.devices[d].push_back({id, kNoOp});
    end_[id] = now + Duration(c.kind, c.microbatch, c.stage);
    free_at_[d] = end_[id];
    ++Next(c.kind, c.stage);
    --left_[d];
    held_[d] += HeldChange(b_, c.kind, c.stage, false);
    if (c.kind == OpKind::kF) {
      if (c.stage == first_stage_[d]) reserved_[d] += microbatch_units_[d];
    } else if (c.kind == OpKind::kB) {
      reserved_[d] -= b_.by_b[c.stage];
    } else {
      reserved_[d] -= b_.units[c.stage] - b_.by_b[c.stage];
    }
  }

  const Problem& p_;
  const Budget& b_;
  const GreedyRule& r_;
  std::mt19937_64& rng_;
  OpSpace space_;
  int S_;
  std::vector<Tick> end_;
  std::vector<int> next_;  // next microbatch per (kind, stage)
  std::vector<Tick> free_at_;
  std::vector<std::int64_t> held_, reserved_, microbatch_units_, f_cap_;
  std::vector<Tick> weight_;  // per microbatch; empty = 1 each
  std::vector<int> left_;  // ops not yet started per device
  std::vector<std::vector<int>> stages_of_;
  std::vector<int> first_stage_;
};

}  // namespace

bool GreedyOrder(const Problem& problem, const Budget& budget, const GreedyRule& rule, std::mt19937_64& rng,
                 Schedule& out) {
  return Greedy(problem, budget, rule, rng).Run(out);
}

}  // namespace ppsim::search

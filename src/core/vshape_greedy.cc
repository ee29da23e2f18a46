#include "vshape_greedy.h"

#include <algorithm>
#include <tuple>

#include "schedule_builder.h"

namespace ppsim {
namespace {

// The passes of one device, in the order the generator numbers them. kW is
// every W while they are one kind (first two rounds); at the end it is
// chunk 1's W and kW0 chunk 0's.
enum Pass : int { kF0 = 0, kF1 = 1, kB1 = 2, kB0 = 3, kW = 4, kW0 = 5 };

// slots[pass][k] = time slot of microbatch k's pass on one device; each
// pass's slots increase with k and no two ops of a device share a slot.
using Slots = std::vector<std::vector<int>>;

int LastSlot(const Slots& s) {
  int last = 0;
  for (const std::vector<int>& pass : s)
    if (!pass.empty()) last = std::max(last, pass.back());
  return last;
}

// slot -> pass occupying it, -1 if free.
std::vector<int> Occupancy(const Slots& s, int passes) {
  std::vector<int> at(LastSlot(s) + 1, -1);
  for (int t = 0; t < passes; ++t)
    for (int slot : s[t]) at[slot] = t;
  return at;
}

// Gives every backward its W: each free slot takes one pending W (chunk 1's
// before chunk 0's when `split`), the rest follow the last op. Appends the W
// pass(es) to `s`, which holds the four passes F0 F1 B1 B0.
void PutW(Slots& s, bool split) {
  const int last = LastSlot(s);
  const std::vector<int> at = Occupancy(s, 4);
  s.resize(split ? 6 : 5);
  int pending[2] = {0, 0};
  for (int i = 0; i <= last; ++i) {
    if (at[i] >= 0) {
      if (at[i] >= kB1) ++pending[split ? at[i] - kB1 : 0];
      continue;
    }
    for (int w = 0; w < 2; ++w)
      if (pending[w] > 0) {
        s[kW + w].push_back(i);
        --pending[w];
        break;
      }
  }
  int i = last;
  for (int w = 0; w < 2; ++w)
    for (; pending[w] > 0; --pending[w]) s[kW + w].push_back(++i);
}

// Activations one device holds at worst, in the generator's own count: +1 at
// each forward, -1 at each W. Without W passes (four passes) a free slot
// runs one pending W.
int MemoryOf(const Slots& s, std::vector<int>& at) {
  const bool has_w = s.size() > 4;
  at.assign(LastSlot(s) + 1, -1);
  for (int t = 0; t < static_cast<int>(s.size()); ++t)
    for (int slot : s[t]) at[slot] = t;
  int held = 0, worst = 0, pending = 0;
  for (int pass : at) {
    if (pass >= 0) {
      held += pass <= kF1 ? 1 : pass == kW ? -1 : 0;
      if (pass == kB1 || pass == kB0) ++pending;
    } else if (!has_w && pending > 0) {
      --held;
      --pending;
    }
    worst = std::max(worst, held);
  }
  return worst;
}

struct Visit {
  int slot, device, pass, microbatch;
  friend bool operator<(const Visit& a, const Visit& b) {
    return std::tie(a.slot, a.device, a.pass, a.microbatch) < std::tie(b.slot, b.device, b.pass, b.microbatch);
  }
};

// Every op of every device, in slot order (ties: lower device, then pass).
std::vector<Visit> SlotOrder(const std::vector<Slots>& s) {
  std::vector<Visit> order;
  for (int d = 0; d < static_cast<int>(s.size()); ++d)
    for (int t = 0; t < static_cast<int>(s[d].size()); ++t)
      for (int k = 0; k < static_cast<int>(s[d][t].size()); ++k) order.push_back({s[d][t][k], d, t, k});
  std::sort(order.begin(), order.end());
  return order;
}

// Runs the slots in order with every op one tick long and no latency, each as
// early as its dependencies allow; returns the start ticks (the generator's
// "eager execution"). A W waits only for the previous op of its device.
std::vector<Slots> Eager(const std::vector<Slots>& s) {
  const int P = static_cast<int>(s.size());
  std::vector<Slots> end = s;
  std::vector<int> free_at(P, 0);
  for (const Visit& v : SlotOrder(s)) {
    const int d = v.device, t = v.pass, k = v.microbatch;
    int ready = free_at[d];
    if ((t == kF0 || t == kB1) && d > 0) ready = std::max(ready, end[d - 1][t][k]);
    if ((t == kF1 || t == kB0) && d + 1 < P) ready = std::max(ready, end[d + 1][t][k]);
    if (t > kF0 && t < kW) ready = std::max(ready, end[d][t - 1][k]);
    if (k > 0) ready = std::max(ready, end[d][t][k - 1]);
    end[d][t][k] = free_at[d] = ready + 1;
  }
  for (Slots& device : end)
    for (std::vector<int>& pass : device)
      for (int& tick : pass) --tick;  // start = end - 1
  return end;
}

// The earliest slot op (d, t, k) may take: after its dependencies' slots.
int EarliestSlot(const std::vector<Slots>& s, int d, int t, int k) {
  const int P = static_cast<int>(s.size());
  int after = -1;
  if ((t == kF0 || t == kB1) && d > 0) after = std::max(after, s[d - 1][t][k]);
  if ((t == kF1 || t == kB0) && d + 1 < P) after = std::max(after, s[d + 1][t][k]);
  if (t > kF0 && t < kW) after = std::max(after, s[d][t - 1][k]);
  if (t == kW) {  // the k-th backward of either chunk
    std::vector<int> backward = s[d][kB1];
    backward.insert(backward.end(), s[d][kB0].begin(), s[d][kB0].end());
    std::nth_element(backward.begin(), backward.begin() + k, backward.end());
    after = std::max(after, backward[k]);
  }
  if (k > 0) after = std::max(after, s[d][t][k - 1]);
  return after + 1;
}

// One squeeze. Visits the ops in slot order and moves each to the earliest
// free slot after its dependencies that keeps its device within the memory
// the slots started with. The ops from the first chunk-0 backward on device
// 0 to the last microbatch's first forward (the steady state) stay where
// they are; so does the warm-up unless W are ops here (`with_w`). Returns
// the squeezed schedule run eagerly, with W as ops.
std::vector<Slots> Reorder(std::vector<Slots> s, bool with_w, int M) {
  if (with_w)
    for (Slots& device : s) PutW(device, false);
  std::vector<int> scratch;
  int memory = 0;
  for (const Slots& device : s) memory = std::max(memory, MemoryOf(device, scratch));
  std::vector<std::vector<char>> taken;
  for (const Slots& device : s) taken.emplace_back(LastSlot(device) + 1, 0);
  int phase = 0;  // 0 warm-up, 1 steady (kept), 2 cool-down
  for (const Visit& v : SlotOrder(s)) {
    int& slot = s[v.device][v.pass][v.microbatch];
    if (phase == 0 && v.pass == kB0 && v.device == 0) phase = 1;
    const bool keep = phase == 1 || (phase == 0 && !with_w);
    if (phase == 1 && v.pass == kF0 && v.microbatch == M - 1) phase = 2;
    if (!keep) {
      const int original = slot;
      bool moved = false;
      for (int at = EarliestSlot(s, v.device, v.pass, v.microbatch); at < original && !moved; ++at) {
        if (taken[v.device][at]) continue;
        slot = at;
        moved = MemoryOf(s[v.device], scratch) <= memory;
      }
      if (!moved) slot = original;
    }
    taken[v.device][slot] = 1;
  }
  if (!with_w)
    for (Slots& device : s) PutW(device, false);
  return Eager(s);
}

}  // namespace

Error CheckVShapeGreedySize(const Problem& p, const std::string& schedule) {
  const std::string why = " for the Zero Bubble team's greedy order (refused before allocating; docs/schedules.md)";
  if (p.P > kMaxVShapeGreedyDevices)
    return Fail(ErrorCode::kTooLarge, schedule + ": P = " + std::to_string(p.P) + " exceeds the limit " +
                                          std::to_string(kMaxVShapeGreedyDevices) + why);
  const std::int64_t cells = std::int64_t{p.P} * p.M;
  if (cells > kMaxVShapeGreedyCells)
    return Fail(ErrorCode::kTooLarge, schedule + ": P·M = " + std::to_string(cells) + " exceeds the limit " +
                                          std::to_string(kMaxVShapeGreedyCells) + why);
  return Error::Ok();
}

Schedule GreedyVShapeSchedule(const Problem& p, const VShapePattern& pattern) {
  const int P = p.P, M = p.M;
  std::vector<Slots> s(P, Slots(4));
  for (int d = 0; d < P; ++d)
    for (int t = 0; t < 4; ++t)
      for (int k = 0; k < M; ++k) s[d][t].push_back(pattern[d][t] + 6 * k);
  s = Reorder(std::move(s), true, M);
  for (Slots& device : s) device.resize(4);
  s = Reorder(std::move(s), false, M);
  Schedule out = EmptySchedule(p);
  for (int d = 0; d < P; ++d) {
    Slots& device = s[d];
    device.resize(4);
    PutW(device, true);
    std::vector<Visit> order = SlotOrder({device});
    QueueBuilder q(out, d);
    q.Reserve(order.size());
    const int down = d, up = 2 * P - 1 - d;  // chunk 0 and chunk 1 stages
    for (const Visit& v : order) {
      static constexpr OpKind kKind[6] = {OpKind::kF, OpKind::kF, OpKind::kB, OpKind::kB, OpKind::kW, OpKind::kW};
      static constexpr bool kUp[6] = {false, true, true, false, true, false};
      q.Add(kKind[v.pass], v.microbatch, kUp[v.pass] ? up : down);
    }
  }
  return out;
}

}  // namespace ppsim

#include "split_choices.h"

#include <algorithm>
#include <numeric>

namespace ppsim::split {
namespace {

Tick SumOf(const Model& model, char kind, Tick ModelLayer::*field) {
  Tick s = 0;
  for (const ModelLayer& l : model.layers)
    if (l.kind == kind) s += l.*field;
  return s;
}

bool AllPositive(const Model& model, const std::string& kinds) {
  for (Tick ModelLayer::*field : {&ModelLayer::f, &ModelLayer::b, &ModelLayer::w}) {
    Tick s = 0;
    for (char k : kinds) s += SumOf(model, k, field);
    if (s < 1) return false;
  }
  return true;
}

// Greedy feasibility for the balanced split: each stage takes as many
// layers as fit under `cap`, leaving enough for the stages after it.
bool FitsUnder(std::int64_t cap, const std::vector<std::int64_t>& layer, const std::vector<std::int64_t>& fixed,
               const std::vector<int>& lo, std::vector<int>& out) {
  const int n = static_cast<int>(layer.size()), S = static_cast<int>(lo.size());
  std::vector<int> need_after(S + 1, 0);
  for (int s = S - 1; s >= 0; --s) need_after[s] = need_after[s + 1] + lo[s];
  out.assign(S, 0);
  int i = 0;
  for (int s = 0; s < S; ++s) {
    std::int64_t w = fixed[s];
    const int most = n - need_after[s + 1];
    while (i < most && (out[s] < lo[s] || (s == S - 1) || w + layer[i] <= cap)) {
      w += layer[i++];
      ++out[s];
    }
    if (w > cap) return false;
  }
  return i == n;
}

}  // namespace

std::vector<int> MinimumLayers(const Model& model, int S) {
  std::vector<int> lo(S, 0);  // a middle stage may be empty (Problem::empty_stages)
  if (S == 1) {
    lo[0] = AllPositive(model, "EmL") ? 0 : 1;
    return lo;
  }
  lo[0] = AllPositive(model, "E") ? 0 : 1;
  lo[S - 1] = AllPositive(model, "mL") ? 0 : 1;
  return lo;
}

std::int64_t CountSplits(int n, const std::vector<int>& lo) {
  const int free = n - std::accumulate(lo.begin(), lo.end(), 0);
  if (free < 0) return 0;
  const std::int64_t cap = std::int64_t{1} << 62;
  const int k = static_cast<int>(lo.size()) - 1;  // C(free + k, k)
  long double c = 1;
  std::int64_t exact = 1;
  for (int i = 1; i <= k; ++i) {
    c = c * (free + i) / i;
    if (c > static_cast<long double>(cap)) return cap;
    exact = static_cast<std::int64_t>(c + 0.5L);
  }
  return exact;
}

std::vector<std::vector<int>> AllSplits(int n, const std::vector<int>& lo) {
  std::vector<std::vector<int>> out;
  const int S = static_cast<int>(lo.size());
  std::vector<int> cur(S, 0);
  std::vector<int> need_after(S + 1, 0);
  for (int s = S - 1; s >= 0; --s) need_after[s] = need_after[s + 1] + lo[s];
  // Depth-first: stage s takes lo[s] .. (left − what the later stages need).
  auto rec = [&](auto& self, int s, int left) -> void {
    if (s == S - 1) {
      if (left < lo[s]) return;
      cur[s] = left;
      out.push_back(cur);
      return;
    }
    for (int c = lo[s]; c <= left - need_after[s + 1]; ++c) {
      cur[s] = c;
      self(self, s + 1, left - c);
    }
  };
  if (S > 0 && n >= need_after[0]) rec(rec, 0, n);
  return out;
}

std::vector<int> EvenSplit(int n, const std::vector<int>& lo) {
  const int S = static_cast<int>(lo.size());
  if (n < std::accumulate(lo.begin(), lo.end(), 0)) return {};
  std::vector<int> out(S, n / S);
  for (int i = 0; i < n % S; ++i) out[S == 1 ? 0 : 1 + i % (S - 1)] += 1;
  // Respect the minimums by taking from the largest stages.
  for (int s = 0; s < S; ++s)
    while (out[s] < lo[s]) {
      const int from = static_cast<int>(std::max_element(out.begin(), out.end()) - out.begin());
      --out[from];
      ++out[s];
    }
  return out;
}

std::vector<int> BalancedSplit(const std::vector<std::int64_t>& layer, const std::vector<std::int64_t>& fixed,
                               const std::vector<int>& lo) {
  const int n = static_cast<int>(layer.size());
  if (n < std::accumulate(lo.begin(), lo.end(), 0)) return {};
  std::int64_t lo_cap = 0, hi_cap = std::accumulate(layer.begin(), layer.end(), std::int64_t{0});
  for (std::int64_t f : fixed) hi_cap += f;
  std::vector<int> out, best;
  // Binary search for the smallest cap under which the greedy places every layer.
  while (lo_cap < hi_cap) {
    const std::int64_t mid = lo_cap + (hi_cap - lo_cap) / 2;
    if (FitsUnder(mid, layer, fixed, lo, out))
      hi_cap = mid;
    else
      lo_cap = mid + 1;
  }
  FitsUnder(hi_cap, layer, fixed, lo, best);
  return best;
}

}  // namespace ppsim::split

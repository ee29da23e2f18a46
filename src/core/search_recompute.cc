#include "search_recompute.h"

#include <algorithm>
#include <vector>

#include "ppsim/recompute.h"

namespace ppsim::search {

Problem FoldedRecompute(const Problem& p) {
  if (!Recomputes(p)) return p;
  Problem q = p;
  const int S = p.stages();
  std::vector<Tick> b(S), w(S);
  for (int s = 0; s < S; ++s) {
    b[s] = p.costs.Of(OpKind::kB, s) + (HasRecompute(p, s) ? p.costs.Of(OpKind::kR, s) : 0);
    w[s] = p.costs.Of(OpKind::kW, s);
  }
  q.costs.b = std::move(b);
  q.costs.w = std::move(w);
  q.costs.bw.clear();  // a full backward is B then W in the search's orders
  q.costs.r.clear();
  q.recompute = RecomputeMode::kOff;
  q.memory.input_bytes.clear();
  return q;
}

Budget BoundBudget(const Budget& budget) {
  Budget b = budget;
  b.units = b.kept;
  for (size_t s = 0; s < b.by_b.size(); ++s) b.by_b[s] = std::min(b.by_b[s], b.kept[s]);
  return b;
}

}  // namespace ppsim::search

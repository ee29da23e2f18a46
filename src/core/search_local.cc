#include "search_local.h"

#include <algorithm>
#include <vector>

#include "ppsim/placement.h"

namespace ppsim::search {
namespace {

struct Edge {
  int device;
  int index;  // the op at `index` starts when the op at index-1 ends
};

// Device edges on one critical path of the order just evaluated.
std::vector<Edge> CriticalDeviceEdges(const Context& c, const Schedule& s, std::mt19937_64& rng) {
  const Problem& p = c.problem();
  const auto start = [&c](OpId id) { return c.last_start(id); };
  const std::vector<Tick>& end = c.last_end();
  // Position of each op in its queue.
  std::vector<std::pair<int, int>> at(s.space.size(), {-1, -1});
  OpId last = kNoOp;
  for (int d = 0; d < p.P; ++d)
    for (int i = 0; i < static_cast<int>(s.devices[d].size()); ++i) {
      const OpId id = s.devices[d][i].op;
      at[id] = {d, i};
      if (last == kNoOp || end[id] > end[last]) last = id;
    }
  std::vector<Edge> edges;
  for (OpId id = last; id != kNoOp;) {
    const auto [d, i] = at[id];
    const OpId prev = i > 0 ? s.devices[d][i - 1].op : kNoOp;
    const OpId dep = DependencyOf(s.space, true, id);
    bool by_device = prev != kNoOp && end[prev] == start(id);
    bool by_dep = false;
    if (dep != kNoOp && c.comms()) {
      // Placed with comm ops: an op that did not start when its device
      // became free waited on its input's transfer (or a call before it).
      by_dep = !by_device && end[dep] <= start(id);
    } else if (dep != kNoOp) {
      const Op a = s.space.At(dep), b = s.space.At(id);
      const Tick lat = a.kind == b.kind ? p.CommBetween(a.stage, b.stage) : 0;
      by_dep = end[dep] + lat == start(id);
    }
    if (by_device) edges.push_back({d, i});
    if (by_device && by_dep) {
      id = (rng() & 1) ? prev : dep;
    } else if (by_device) {
      id = prev;
    } else if (by_dep) {
      id = dep;
    } else {
      break;  // starts at 0
    }
  }
  return edges;
}

// Moves queue[from] to position `to` (indices into the queue before the move).
void Move(std::vector<Slot>& queue, int from, int to) {
  const Slot slot = queue[from];
  if (from < to) {
    std::copy(queue.begin() + from + 1, queue.begin() + to + 1, queue.begin() + from);
  } else {
    std::copy_backward(queue.begin() + to, queue.begin() + from, queue.begin() + from + 1);
  }
  queue[to] = slot;
}

// A random move near (device, index): returns false if it is a no-op.
bool RandomMove(std::mt19937_64& rng, const Schedule& s, int& device, int& from, int& to, bool aimed) {
  const int n = static_cast<int>(s.devices[device].size());
  if (n < 2) return false;
  const int reach = 1 + static_cast<int>(rng() % 4);
  if (aimed) {
    // Either the later op moves earlier, or the earlier op moves later.
    if (rng() & 1) {
      to = std::max(0, from - reach);
    } else {
      from = from - 1;
      to = std::min(n - 1, from + reach);
    }
  } else {
    from = static_cast<int>(rng() % n);
    to = std::clamp(from + ((rng() & 1) ? reach : -reach), 0, n - 1);
  }
  return from != to && from >= 0;
}

}  // namespace

void LocalSearch(Context& c) {
  if (c.best_makespan() == kNone) return;
  std::mt19937_64& rng = c.rng();
  Schedule current = c.best();
  Tick current_span = c.Evaluate(current);
  std::vector<Edge> edges = CriticalDeviceEdges(c, current, rng);
  int stale = 0, kicks = 0;
  // Converged: this many candidates in a row without a new best.
  const std::int64_t patience = 50'000 + 200 * current.op_count();
  std::int64_t since_best = 0;
  while (!c.Stop() && since_best++ < patience) {
    int device = 0, from = 0, to = 0;
    const bool aimed = !edges.empty() && (rng() % 4) != 0;
    if (aimed) {
      const Edge e = edges[rng() % edges.size()];
      device = e.device;
      from = e.index;
    } else {
      device = static_cast<int>(rng() % c.problem().P);
    }
    if (!RandomMove(rng, current, device, from, to, aimed)) continue;
    std::vector<Slot>& queue = current.devices[device];
    Move(queue, from, to);
    Tick span = kNone;
    if (DeviceFits(c.budget(), current.space, queue, c.budget().capacity[device])) span = c.Evaluate(current);
    const bool kick = stale > 2000;  // stuck: take a worse step
    if (span != kNone && (span <= current_span || kick)) {
      stale = span < current_span ? 0 : stale + 1;
      if (kick) {
        stale = 0;
        ++kicks;
      }
      current_span = span;
      if (c.Offer(current, span, "local")) kicks = since_best = 0;
      edges = CriticalDeviceEdges(c, current, rng);
    } else {
      Move(queue, to, from);  // undo
      ++stale;
    }
    if (kicks > 8) {  // the kicks led nowhere: walk again from the best
      current = c.best();
      current_span = c.Evaluate(current);
      edges = CriticalDeviceEdges(c, current, rng);
      kicks = 0;
    }
  }
}

}  // namespace ppsim::search

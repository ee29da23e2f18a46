// The split search (split_search.h): families of splits, each split's
// bound, best-first order search with pruning, one-layer moves on large
// families, and the lower bound over everything.
#include "ppsim/split_search.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "search_bound.h"
#include "split_choices.h"

namespace ppsim {
namespace {

using Clock = std::chrono::steady_clock;

int Decoders(const Model& m) {
  return static_cast<int>(std::count_if(m.layers.begin(), m.layers.end(), [](const ModelLayer& l) { return l.kind == 't'; }));
}

Problem BaseProblem(const SplitSearchOptions& o) {
  Problem p;
  p.P = o.P;
  p.M = o.M;
  p.comm = o.comm;
  p.hold = HoldMode::kResident;  // how the budget counts
  p.memory.limit = o.memory_limit;
  p.memory.freed_by_b_percent = o.freed_by_b_percent;
  return p;
}

// The split's problem, its minimum budget and bound; fits false when it
// does not fit (or a stage sums to 0).
SplitRecord Assess(const Model& model, const ModelSplit& split, const SplitSearchOptions& o, Problem& p) {
  SplitRecord r;
  r.split = split;
  p = BaseProblem(o);
  if (!ApplySplit(model, split, p).ok() || !ValidateProblem(p).ok()) return r;
  r.minimum_bytes = MinimumBudget(p, true);
  r.fits = r.minimum_bytes <= o.memory_limit;
  if (r.fits) r.bound = search::LowerBound(p, search::ByteBudget(p)).Max();
  return r;
}

// What no split of the family can beat: one microbatch's whole chain (every
// layer's F and B, a hop between every two stages on different devices),
// and the busiest device's share of all the work.
Tick FamilyBound(const Model& model, const ModelSplit& shape, const SplitSearchOptions& o) {
  Tick chain = 0, work = 0;
  for (const ModelLayer& l : model.layers) {
    const Tick b = l.b + (l.recompute ? l.f : 0);
    chain += l.f + b;
    work += l.f + b + l.w;
  }
  const int S = static_cast<int>(shape.decoder.size());
  const int local_hops = o.P == 1 ? S - 1 : shape.placement == Placement::kVShape ? 1 : 0;
  chain += 2 * static_cast<Tick>(S - 1 - local_hops) * o.comm;
  const Tick share = (work * o.M + o.P - 1) / o.P;
  return std::max(chain, share);
}

Tick KnownBound(const SplitRecord& r, Tick order_bound) {
  if (r.proven) return r.makespan;
  return std::max(r.bound, order_bound);
}

class Driver {
 public:
  Driver(const Model& model, const SplitSearchOptions& o) : model_(model), o_(o), start_(Clock::now()) {}

  double Seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  bool OutOfTime() const { return Seconds() >= o_.time_limit_seconds; }

  // Adds a split not seen before; returns its index or -1.
  int Add(const ModelSplit& split, int family) {
    auto key = std::make_pair(family, split.decoder);
    if (seen_.count(key)) return -1;
    Problem p;
    SplitRecord r = Assess(model_, split, o_, p);
    seen_[key] = static_cast<int>(records_.size());
    records_.push_back(std::move(r));
    order_bounds_.push_back(0);
    family_of_.push_back(family);
    if (!records_.back().fits && records_.back().minimum_bytes > 0)
      lightest_ = std::min(lightest_, records_.back().minimum_bytes);
    return static_cast<int>(records_.size()) - 1;
  }

  // Searches the order of record i unless its bound reaches the best.
  void Evaluate(int i) {
    SplitRecord& r = records_[i];
    if (!r.fits || r.searched) return;
    if (best_ >= 0 && r.bound >= records_[best_].makespan) {
      ++pruned_;
      return;
    }
    if (OutOfTime() && best_ >= 0) return;  // one split is always searched
    Problem p;
    Assess(model_, r.split, o_, p);
    SearchOptions so;
    so.time_limit_seconds = o_.time_limit_seconds;  // as SearchOneSplit: the same order for the same split
    so.max_evaluations = o_.evaluations_per_split;
    so.seed = o_.seed;
    Result<SearchResult> found = Search(p, so);
    if (!found) return;
    r.searched = true;
    r.makespan = found->timeline.makespan;
    r.proven = found->optimal;
    order_bounds_[i] = found->lower_bound;
    evaluated_ += found->evaluated;
    ++searched_;
    if (best_ < 0 || r.makespan < records_[best_].makespan) {
      best_ = i;
      best_order_ = std::move(*found);
    }
  }

  // Evaluates the records from `first` on in order of their bound.
  void EvaluateBestFirst(size_t first) {
    std::vector<int> idx;
    for (size_t i = first; i < records_.size(); ++i)
      if (records_[i].fits) idx.push_back(static_cast<int>(i));
    std::stable_sort(idx.begin(), idx.end(), [this](int a, int b) { return records_[a].bound < records_[b].bound; });
    for (int i : idx) {
      if (OutOfTime()) return;
      Evaluate(i);
    }
  }

  // Adds each split one layer across one boundary from `base` (none below
  // zero layers) to the family; returns the index of the first added.
  size_t AddNeighbours(ModelSplit base, int family) {
    const size_t first = records_.size();
    for (size_t s = 0; s + 1 < base.decoder.size(); ++s)
      for (int dir : {-1, 1}) {
        ModelSplit n = base;
        n.decoder[s] += dir;
        n.decoder[s + 1] -= dir;
        if (n.decoder[s] >= 0 && n.decoder[s + 1] >= 0) Add(n, family);
      }
    return first;
  }

  // When every split of a family tried so far was cut (its bound reached the
  // best makespan of another family), its neighbours may still beat it:
  // from the split of least bound, one layer across one boundary to the
  // neighbour of least bound, while the bound falls, until one is searched.
  // Returns the family's best searched split, or -1.
  int Descend(int family) {
    int at = -1;
    for (size_t i = 0; i < records_.size(); ++i)
      if (family_of_[i] == family && records_[i].fits && (at < 0 || records_[i].bound < records_[at].bound))
        at = static_cast<int>(i);
    while (at >= 0 && !OutOfTime()) {
      const size_t first = AddNeighbours(records_[at].split, family);
      EvaluateBestFirst(first);
      int best = -1, next = -1;
      for (size_t i = first; i < records_.size(); ++i) {
        if (records_[i].searched && (best < 0 || records_[i].makespan < records_[best].makespan))
          best = static_cast<int>(i);
        if (records_[i].fits && (next < 0 || records_[i].bound < records_[next].bound)) next = static_cast<int>(i);
      }
      if (best >= 0) return best;
      if (next < 0 || records_[next].bound >= records_[at].bound) return -1;
      at = next;
    }
    return -1;
  }

  // One layer across one boundary, from the family's best, while it helps.
  void Improve(int family) {
    for (bool better = true; better && !OutOfTime();) {
      better = false;
      int from = -1;
      for (size_t i = 0; i < records_.size(); ++i)
        if (family_of_[i] == family && records_[i].searched &&
            (from < 0 || records_[i].makespan < records_[from].makespan))
          from = static_cast<int>(i);
      if (from < 0) from = Descend(family);
      if (from < 0) return;
      const Tick before = records_[from].makespan;
      const size_t first = AddNeighbours(records_[from].split, family);
      EvaluateBestFirst(first);
      for (size_t i = first; i < records_.size(); ++i)
        if (records_[i].searched && records_[i].makespan < before) better = true;
    }
  }

  const Model& model_;
  const SplitSearchOptions& o_;
  Clock::time_point start_;
  std::vector<SplitRecord> records_;
  std::vector<Tick> order_bounds_;
  std::vector<int> family_of_;
  std::map<std::pair<int, std::vector<int>>, int> seen_;
  int best_ = -1;
  SearchResult best_order_;
  std::int64_t lightest_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t evaluated_ = 0, searched_ = 0, pruned_ = 0;
};

Error CheckOptions(const Model& model, const SplitSearchOptions& o) {
  if (o.P < 1) return Error::Field(ErrorCode::kInvalidValue, "P", " must be ≥ 1, got " + std::to_string(o.P));
  if (o.M < 1) return Error::Field(ErrorCode::kInvalidValue, "M", " must be ≥ 1, got " + std::to_string(o.M));
  if (o.memory_limit <= 0)
    return Error::Field(ErrorCode::kInvalidValue, "memory_limit",
                        ": a split search needs a budget in bytes per device (> 0)");
  if (!(o.time_limit_seconds > 0))
    return Error::Field(ErrorCode::kInvalidValue, "time_limit", " must be > 0 seconds");
  for (int v : o.chunks)
    if (v < 1 || v > kMaxChunks)
      return Error::Field(ErrorCode::kInvalidValue, "chunks", " must be in 1.." + std::to_string(kMaxChunks));
  if (Decoders(model) < 1)
    return Error::Field(ErrorCode::kInvalidValue, "model", ": a split search needs at least one decoder layer");
  return Error::Ok();
}

std::vector<ModelSplit> FamilyShapes(const Model& model, const SplitSearchOptions& o) {
  std::vector<ModelSplit> out;
  const int n = Decoders(model);
  auto add = [&](Placement pl, int v) {
    const int S = v * o.P;
    const std::vector<int> lo = split::MinimumLayers(model, S);
    if (split::CountSplits(n, lo) == 0) return;
    out.push_back({pl, v, std::vector<int>(static_cast<size_t>(S), 0)});
  };
  for (int v : o.chunks) add(Placement::kLoop, v);
  if (o.vshape && o.P > 1) add(Placement::kVShape, 2);
  return out;
}

// Per decoder layer: its work (F + B with recompute + W), or its bytes.
std::vector<std::int64_t> LayerWeights(const Model& model, bool bytes) {
  std::vector<std::int64_t> out;
  for (const ModelLayer& l : model.layers) {
    if (l.kind != 't') continue;
    out.push_back(bytes ? l.param_bytes + GradBytes(l, model.bytes_per_param) +
                              OptimizerBytes(l, model.bytes_per_param) + HeldBytes(l)
                        : l.f + l.b + (l.recompute ? l.f : 0) + l.w);
  }
  return out;
}

std::vector<std::int64_t> FixedWeights(const Model& model, int S, bool bytes) {
  std::vector<std::int64_t> out(static_cast<size_t>(S), 0);
  for (const ModelLayer& l : model.layers) {
    if (l.kind == 't') continue;
    const std::int64_t w = bytes ? l.param_bytes + GradBytes(l, model.bytes_per_param) +
                                       OptimizerBytes(l, model.bytes_per_param) + HeldBytes(l)
                                 : l.f + l.b + (l.recompute ? l.f : 0) + l.w;
    out[l.kind == 'E' ? 0 : S - 1] += w;
  }
  return out;
}

}  // namespace

Result<SearchResult> SearchOneSplit(const Model& model, const ModelSplit& split, const SplitSearchOptions& o) {
  if (Error e = CheckOptions(model, o); !e.ok()) return e;
  Problem p = BaseProblem(o);
  if (Error e = ApplySplit(model, split, p); !e.ok()) return e;
  SearchOptions so;
  so.time_limit_seconds = o.time_limit_seconds;
  so.max_evaluations = o.evaluations_per_split;
  so.seed = o.seed;
  return Search(p, so);
}

Result<SplitSearchResult> SearchSplits(const Model& model, const SplitSearchOptions& o) {
  if (Error e = CheckOptions(model, o); !e.ok()) return e;
  Driver d(model, o);
  const int n = Decoders(model);
  const std::vector<ModelSplit> shapes = FamilyShapes(model, o);
  SplitSearchResult out;
  for (size_t f = 0; f < shapes.size(); ++f) {
    const int S = static_cast<int>(shapes[f].decoder.size());
    const std::vector<int> lo = split::MinimumLayers(model, S);
    SplitFamily fam{SplitFamilyName(shapes[f]), split::CountSplits(n, lo), false, 0};
    fam.exhaustive = fam.splits <= o.exhaustive_max_splits;
    ModelSplit s = shapes[f];
    if (fam.exhaustive) {
      for (std::vector<int>& c : split::AllSplits(n, lo)) {
        s.decoder = std::move(c);
        d.Add(s, static_cast<int>(f));
      }
    } else {
      for (bool bytes : {false, true}) {
        s.decoder = split::BalancedSplit(LayerWeights(model, bytes), FixedWeights(model, S, bytes), lo);
        if (!s.decoder.empty()) d.Add(s, static_cast<int>(f));
      }
      s.decoder = split::EvenSplit(n, lo);
      if (!s.decoder.empty()) d.Add(s, static_cast<int>(f));
    }
    out.families.push_back(fam);
  }
  d.EvaluateBestFirst(0);
  for (size_t f = 0; f < shapes.size(); ++f)
    if (!out.families[f].exhaustive) d.Improve(static_cast<int>(f));
  if (d.best_ < 0) {
    if (d.lightest_ == std::numeric_limits<std::int64_t>::max())
      return Error::Field(ErrorCode::kPrecondition, "model", ": no split of its layers gives every stage work");
    return Error::Field(ErrorCode::kPrecondition, "memory_limit",
                        " " + std::to_string(o.memory_limit) +
                            " bytes is below what the lightest split needs: the minimum that works is " +
                            std::to_string(d.lightest_) +
                            " (static bytes + one microbatch's activations on the fullest device)");
  }
  // The bound over everything: a family enumerated is bounded by its splits,
  // another by what no split of it can beat.
  Tick lb = kMaxWork;
  for (size_t f = 0; f < shapes.size(); ++f) {
    Tick fb = kMaxWork;
    if (out.families[f].exhaustive) {
      for (size_t i = 0; i < d.records_.size(); ++i)
        if (d.family_of_[i] == static_cast<int>(f) && d.records_[i].fits)
          fb = std::min(fb, KnownBound(d.records_[i], d.order_bounds_[i]));
    } else {
      fb = FamilyBound(model, shapes[f], o);
    }
    out.families[f].bound = fb;
    lb = std::min(lb, fb);
  }
  const SplitRecord& best = d.records_[d.best_];
  out.split = best.split;
  out.order = std::move(d.best_order_);
  out.lower_bound = std::min(lb, best.makespan);
  out.optimal = out.lower_bound == best.makespan;
  out.splits_considered = static_cast<std::int64_t>(d.records_.size());
  out.splits_searched = d.searched_;
  out.splits_pruned = d.pruned_;
  out.evaluated = d.evaluated_;
  out.seconds = d.Seconds();
  std::string exact, heuristic;
  for (const SplitFamily& f : out.families)
    (f.exhaustive ? exact : heuristic) += (f.exhaustive ? exact : heuristic).empty() ? f.name : ", " + f.name;
  out.exactness = "every split enumerated: " + (exact.empty() ? std::string("none") : exact) +
                  "; seeds and one-layer moves only: " + (heuristic.empty() ? std::string("none") : heuristic) +
                  " (more than " + std::to_string(o.exhaustive_max_splits) +
                  " splits); the order of a split is proven only by search's exact method (at most 48 ops) or "
                  "its bound";
  return out;
}

}  // namespace ppsim

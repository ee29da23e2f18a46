// Search that splits the model (docs/search.md, "Splitting a model"): the
// contiguous split of a model's decoder layers into the S = v·P virtual
// stages of a placement, the chunk count v, the placement (loop, or the V of
// ZB-V) and the order, chosen jointly as the shortest schedule within a
// per-device byte budget, with a lower bound over every split.
//
// A split keeps Megatron's fixed points: the embedding on the first stage of
// the chain, the MTP layers and the loss on the last. A middle stage may hold
// no layer: it is empty and its ops take 0 ticks (Problem::empty_stages), so
// a family has splits even with more stages than decoder layers. A stage
// with layers sums to F, B and W ≥ 1 tick each (the first and last stages
// take a decoder layer when the embedding, or the MTP layers and loss,
// alone do not).
//
// Method: for each (placement, v) family, every split when there are at
// most `exhaustive_max_splits` of them, else seeds (the even split, the
// split balancing stage work, the split balancing bytes) and then moves of
// one layer across one boundary from the best (from the split of least
// bound, descending, when every seed was cut). Splits are taken in order
// of their lower bound (search_bound's, per split); one whose bound reaches
// the best makespan found is never searched, and its order is searched by
// Search() (search.h) otherwise. The result is proven optimal iff every
// family was enumerated and every split's bound, or its order search's
// proof, reaches the best makespan.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/layout_costs.h"
#include "ppsim/problem.h"
#include "ppsim/search.h"

namespace ppsim {

// A contiguous split: decoder[s] decoder layers on virtual stage s, in
// chain order (stage s runs on device problem.DeviceOf(s)).
struct ModelSplit {
  Placement placement = Placement::kLoop;  // kLoop or kVShape (v = 2)
  int v = 1;
  std::vector<int> decoder;  // v·P values summing to the model's decoder layers
};

// "loop v=1", "loop v=2", "v-shape".
std::string SplitFamilyName(const ModelSplit& split);

// The split's stages as a layout's letters, in chain order: "Ettt", "tt",
// "ttmL" (E on the first, MTP layers and L on the last, as the model has them).
std::vector<std::string> SplitStageLetters(const Model& model, const ModelSplit& split);

// The Layout the split describes over P devices, stage s of the chain on
// its device (pp_rank), for TorchtitanModules and the stage sums.
Layout SplitAsLayout(const Model& model, const ModelSplit& split, int P);

// `problem` (P, M, comm, memory limit and hold kept) set to the split: each
// stage's op costs and bytes are its layers' sums (ApplyStageCosts), the
// placement the split's. kInvalidValue naming the stage where one sums to 0.
Error ApplySplit(const Model& model, const ModelSplit& split, Problem& problem);

struct SplitSearchOptions {
  int P = 1;                 // devices, ≥ 1
  int M = 1;                 // microbatches, ≥ 1
  Tick comm = 0;             // latency per cross-device hop, ticks
  std::int64_t memory_limit = 0;  // bytes per device, > 0: the budget
  int freed_by_b_percent = 0;     // as MemoryModel's
  std::vector<int> chunks = {1, 2};  // loop placement's chunk counts tried (each ≥ 1)
  bool vshape = true;        // try the V placement (2 chunks) too
  double time_limit_seconds = 10;  // the whole search, > 0
  // Order search per split: stop after this many candidates (Search's
  // max_evaluations), so a run is the same on every machine when the time
  // limit does not cut it. Default 4000.
  std::int64_t evaluations_per_split = 4000;
  // Enumerate every split of a family up to this many; above, seeds and
  // one-layer moves (not exact). Default 3000.
  std::int64_t exhaustive_max_splits = 3000;
  std::uint64_t seed = 1;
};

// One split considered, with what is known of it.
struct SplitRecord {
  ModelSplit split;
  bool fits = false;         // static bytes + one microbatch's activations within the limit
  std::int64_t minimum_bytes = 0;  // that need (MinimumBudget)
  Tick bound = 0;            // lower bound of any order on this split (0 when it does not fit)
  bool searched = false;
  Tick makespan = 0;         // of the order found (searched only)
  bool proven = false;       // the order search proved it optimal for this split
};

struct SplitFamily {
  std::string name;
  std::int64_t splits = 0;   // how many splits the family has (capped at 2^62)
  bool exhaustive = false;   // all of them enumerated
  Tick bound = 0;            // a lower bound over all its splits that fit (kMaxWork: none fits)
};

struct SplitSearchResult {
  ModelSplit split;          // the best
  SearchResult order;        // its order search (order.timeline is the schedule)
  Tick lower_bound = 0;      // over every split of every family tried
  bool optimal = false;      // proven: lower_bound == makespan
  std::vector<SplitFamily> families;
  std::int64_t splits_considered = 0, splits_searched = 0, splits_pruned = 0;
  std::int64_t evaluated = 0;  // order-search candidates, all splits
  double seconds = 0;
  std::string exactness;     // one sentence: where the search is exact and where it stops being so
};

// Searches. Errors: kInvalidValue for options out of range (naming the
// field), kPrecondition when no split fits the limit, naming the minimum the
// lightest split considered needs.
Result<SplitSearchResult> SearchSplits(const Model& model, const SplitSearchOptions& options);

// The order search alone on one given split, with the same budget and
// evaluations as SearchSplits gives each split (a comparison's rows).
// kPrecondition when it does not fit, naming its minimum.
Result<SearchResult> SearchOneSplit(const Model& model, const ModelSplit& split, const SplitSearchOptions& options);

}  // namespace ppsim

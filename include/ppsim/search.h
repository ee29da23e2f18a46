// Search: the shortest schedule under a per-device memory budget, with a
// lower bound no schedule under that budget can beat (docs/search.md).
//
// The budget is counted allocator-style, per device: microbatch m's set for
// stage s is held from the start of F(m,s) to the end of W(m,s) (of a full
// backward when there is no W). Because a device runs one op at a time, what
// it holds when an op starts depends only on its own order, never on time:
// a budget is a property of the order, checked before anything is placed.
//
// Every schedule the search returns has a split backward (W exists); a
// schedule with a full backward is represented, as everywhere in ppsim, by
// its B immediately followed by its W on the same device. Fixed schedules
// without W (1F1B, interleaved, ...) enter the search that way, so their
// makespan is the one they have with backward cost B + W.
//
// Typical use:
//   SearchOptions o;
//   o.max_activations = 4;            // stage-sets per device
//   o.time_limit_seconds = 2;
//   Result<SearchResult> r = Search(problem, o);
//   r->timeline, r->lower_bound, r->optimal ...
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim {

// What the search reports while it runs (to a progress callback).
struct SearchProgress {
  double seconds = 0;           // since the search started
  std::int64_t evaluated = 0;   // candidate orders placed so far
  Tick best = 0;                // best makespan so far (0 = none yet)
  Tick lower_bound = 0;
  std::string phase;            // "seeds", "greedy", "local", "exact"
};

struct SearchOptions {
  // The budget in stage-sets per device (a chunk's set counts 1/v, so a
  // device may hold max_activations·v chunk sets). 0 = no set budget: the
  // problem's bytes model (problem.memory with a limit) is the budget.
  // Default 0; one of the two must be given.
  std::int64_t max_activations = 0;
  // Wall-clock budget of the whole search, in seconds (> 0), its final
  // re-placement and checks included: the search stops early by the time
  // those take (about four placements of the problem). It always returns
  // one schedule that fits, so a limit shorter than placing the problem a
  // few times is exceeded by that. Default 2. A longer limit can only find a
  // shorter schedule or prove more.
  double time_limit_seconds = 2.0;
  // Seed of every random choice. Same seed, same problem, same result —
  // provided the time limit is not what stops the search (a search stopped
  // by time depends on the machine's speed); `max_evaluations` gives a
  // machine-independent stop. Default 1.
  std::uint64_t seed = 1;
  // Stop after this many candidate evaluations, branch-and-bound nodes
  // included (0 = no limit; default 0).
  std::int64_t max_evaluations = 0;
  // Instances with at most this many ops are searched exactly (branch and
  // bound) once the heuristics are done; larger ones only heuristically.
  // Default 48: every P·M ≤ 16 at v = 1. 0 disables the exact method.
  std::int64_t exact_max_ops = 48;
  // Called about every 0.25 s while the search runs (may be empty).
  std::function<void(const SearchProgress&)> progress;
};

// A fixed schedule the search started from.
struct SearchSeed {
  std::string name;       // generator name
  bool fits = false;      // within the budget
  Tick makespan = 0;      // placed with a full backward where it has no W
  std::int64_t peak = 0;  // highest per-device memory, in budget units
};

struct SearchResult {
  Timeline timeline;         // the best schedule, placed (hold = resident)
  Tick lower_bound = 0;      // no schedule within the budget is shorter
  bool optimal = false;      // true only when proven: makespan == bound, or
                             // the exact search finished
  std::string found_by;      // "seed:zb-h1", "greedy", "local", "exact", ...
  // The result was re-placed and its completeness and budget checked, always;
  // true when it was also validated (validate.h: every dependency met, every
  // op at its earliest tick). False on a large problem whose time limit left
  // no room for it (`ppsim validate` checks the --json), or with per-hop comm.
  bool validated = false;
  std::int64_t evaluated = 0;  // candidate orders placed + branch-and-bound nodes
  double seconds = 0;
  std::string budget_unit;     // "stage-sets" or "bytes"
  std::int64_t budget = 0;     // in budget_unit (stage-sets: max_activations)
  // Each device's peak: chunk sets (≤ budget·v), or bytes with the static
  // bytes included (≤ the limit).
  std::vector<std::int64_t> peak_per_device;
  std::vector<SearchSeed> seeds;              // every fixed schedule tried
  // Fixed schedules left untried because the time limit came first (large
  // problems: each is a pass over every op).
  int seeds_not_tried = 0;
  // Best makespan of the Zero Bubble tool's greedy (its eight variants, as
  // rewritten for the budget) that fit; 0 = none fits or not applicable.
  Tick zb_auto = 0;
  // The best seed that fits, or none ("" name).
  const SearchSeed* BestFittingSeed() const;
};

// The smallest budget with which some schedule exists: 1 stage-set (a
// device must hold all its chunks of one microbatch at once), or in bytes
// max over devices of static + one microbatch's activations of its stages.
std::int64_t MinimumBudget(const Problem& problem, bool bytes);

// Searches. REQUIRES: ValidateProblem(problem) ok; problem.placement loop or
// v-shape. Errors: kInvalidValue (time limit ≤ 0, no budget given, dualpipe
// placement), kPrecondition (budget below MinimumBudget, with that minimum
// named).
Result<SearchResult> Search(const Problem& problem, const SearchOptions& options);

}  // namespace ppsim

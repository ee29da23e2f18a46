// The search: seeds (every fixed schedule that fits, the Zero Bubble
// tool's greedy, one microbatch at a time), then greedy list scheduling
// under many rules, then either the exact branch and bound (small
// instances) or local search, each phase with its share of the time.
#include "ppsim/search.h"

#include <algorithm>
#include <optional>

#include "search_bound.h"
#include "search_context.h"
#include "search_exact.h"
#include "search_greedy.h"
#include "search_local.h"
#include "search_recompute.h"
#include "search_seeds.h"
#include "search_zb_greedy.h"
#include "ppsim/comm_lowering.h"
#include "ppsim/comm_run.h"
#include "ppsim/microbatch_lengths.h"
#include "ppsim/placement.h"
#include "ppsim/recompute.h"
#include "ppsim/validate.h"

namespace ppsim {

const SearchSeed* SearchResult::BestFittingSeed() const {
  const SearchSeed* best = nullptr;
  for (const SearchSeed& s : seeds)
    if (s.fits && (best == nullptr || s.makespan < best->makespan)) best = &s;
  return best;
}

// One microbatch alone: its forwards run in stage order, and each set is
// held until its backward, so a device's peak is at the start of some F(s)
// (or of its R): the whole set of s and what its earlier stages kept — all
// of their sets without recompute, their inputs with it.
std::int64_t MinimumBudget(const Problem& p, bool bytes) {
  if (!bytes) return 1;
  const search::Budget b = search::ByteBudget(p);
  std::vector<std::int64_t> fixed(p.P, 0), kept(p.P, 0), need(p.P, 0);
  for (int s = 0; s < p.stages(); ++s) {
    const int d = p.DeviceOf(s);
    fixed[d] += p.memory.StaticBytes(s);
    need[d] = std::max(need[d], kept[d] + b.units[s]);
    kept[d] += b.kept[s];
  }
  for (int d = 0; d < p.P; ++d) need[d] += fixed[d];
  return *std::max_element(need.begin(), need.end());
}

namespace {

using search::Budget;
using search::Context;
using search::kNone;

Error CheckOptions(const Problem& p, const SearchOptions& o) {
  if (!(o.time_limit_seconds > 0))
    return Fail(ErrorCode::kInvalidValue, "time limit must be > 0 seconds, got " + std::to_string(o.time_limit_seconds));
  if (p.placement == Placement::kDualPipe)
    return Fail(ErrorCode::kInvalidValue, "search runs on loop or v-shape placement, not dualpipe");
  if (p.slices != 1)
    return Error::Field(ErrorCode::kPrecondition, "slices", " applies only to seq1f1b; search orders whole microbatches");
  if (Recomputes(p) && p.recompute_at == RecomputeAt::kEarly)
    return Error::Field(ErrorCode::kPrecondition, "recompute_at",
                        ": search puts each R right before its B, after B's gradient (before_b); early is not "
                        "searched yet");
  if (Recomputes(p) && p.comms.enabled())
    return Error::Field(ErrorCode::kPrecondition, "comms",
                        ": search with recompute places without comm ops (R is not lowered yet); drop --comms or "
                        "--recompute");
  Error e = ValidateProblem(p);
  if (e.code != ErrorCode::kOk) return e;
  if (o.max_activations < 0)
    return Fail(ErrorCode::kInvalidValue, "max activations must be ≥ 1, got " + std::to_string(o.max_activations));
  if (o.max_activations == 0 && p.memory.limit <= 0)
    return Fail(ErrorCode::kInvalidValue, "search needs a budget: max activations, or a memory limit in bytes");
  if (o.max_activations == 0 && !p.memory.enabled())
    return Fail(ErrorCode::kInvalidValue, "a memory limit in bytes needs activation bytes (a cost file's memory model)");
  if (o.max_activations == 0) {
    const std::int64_t min = MinimumBudget(p, true);
    if (p.memory.limit < min)
      return Fail(ErrorCode::kPrecondition,
                  "memory limit " + std::to_string(p.memory.limit) + " bytes is below what any schedule needs: " +
                      "the minimum that works is " + std::to_string(min) +
                      " (static bytes + one microbatch's activations on the fullest device)");
  }
  return Error::Ok();
}

// With comms: the rule must lower the search's orders (each a split
// backward, R-free, one op per slot); the order one microbatch at a time,
// which every budget fits, is lowered and placed, and the rule's refusal or
// the deadlock of its program is the answer, naming the rule.
Error CheckCommsLower(const Problem& p) {
  if (!p.comms.enabled()) return Error::Ok();
  const Schedule one = search::OneAtATime(p);
  Result<CommProgram> program = LowerComms(p, one);
  Error e = program ? Error::Ok() : program.error();
  if (e.ok()) {
    Result<CommRun> run = RunComms(p, one, *program, p.comms);
    if (!run) e = run.error();
  }
  if (e.ok()) return e;
  return Error::Field(e.code, "comms",
                      " " + std::string(CommOrderName(p.comms.order)) +
                          " cannot place the search's orders (each backward split into B and W): " + e.message);
}

// Every fixed schedule: recorded, and offered when it fits. Once the time
// limit (less the reserve for what follows) is near, the rest are counted in
// `not_tried` instead; one schedule that fits is always found first.
void TrySeeds(Context& c, SearchResult& r) {
  for (const GeneratorInfo* g : search::FixedGenerators(c.problem())) {
    if (c.best_makespan() != kNone && c.OutOfTime()) {
      ++r.seeds_not_tried;
      continue;
    }
    std::optional<search::NamedSchedule> n = search::FixedSchedule(c.problem(), *g);
    if (!n) continue;
    SearchSeed seed;
    seed.name = n->name;
    const std::vector<std::int64_t> peaks = search::PeakUnits(c.budget(), c.problem(), n->schedule);
    seed.peak = *std::max_element(peaks.begin(), peaks.end());
    seed.fits = search::Fits(c.budget(), c.problem(), n->schedule);
    seed.makespan = c.Evaluate(n->schedule);
    if (seed.makespan == kNone) continue;
    if (seed.fits) c.Offer(n->schedule, seed.makespan, "seed:" + n->name);
    r.seeds.push_back(seed);
  }
  if (c.best_makespan() == kNone || !c.OutOfTime()) {
    Schedule one = search::OneAtATime(c.problem());  // fits every budget the search accepts
    c.Consider(one, "seed:one-at-a-time");
  }
  if (c.OutOfTime()) return;
  for (Schedule& s : search::ZbGreedyOrders(c.problem(), c.budget())) {
    const Tick makespan = c.Consider(s, "zb-auto");
    if (makespan != kNone && (r.zb_auto == 0 || makespan < r.zb_auto)) r.zb_auto = makespan;
  }
}

// The orders in which microbatches enter the pipeline: as given or, with
// per-microbatch costs, longest first, as given and shortest first (heuristics, not
// proofs: the lower bound says how far they may be). Each is a permutation
// `perm`, microbatch i of the order being microbatch perm[i] of the problem.
std::vector<std::vector<int>> MicrobatchOrders(const Problem& p) {
  std::vector<int> given(p.M);
  for (int m = 0; m < p.M; ++m) given[m] = m;
  const std::vector<Tick> w = MicrobatchWeights(p);
  if (w.empty()) return {given};
  std::vector<std::vector<int>> out;
  for (int rule : {0, 1, 2}) {  // longest first, as given, shortest first
    std::vector<int> perm = given;
    if (rule != 1)
      std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return rule == 0 ? w[a] > w[b] : w[a] < w[b]; });
    if (std::find(out.begin(), out.end(), perm) == out.end()) out.push_back(perm);
  }
  return out;
}

// `p` with its microbatches in the order `perm`.
Problem Reordered(const Problem& p, const std::vector<int>& perm) {
  Problem q = p;
  const std::vector<Tick> w = MicrobatchWeights(p);
  if (w.empty()) return q;
  q.lengths = LengthSource::kNone;
  q.microbatch_weights.assign(p.M, 1);
  for (int i = 0; i < p.M; ++i) q.microbatch_weights[i] = w[perm[i]];
  return q;
}

// A schedule of Reordered(p, perm) as a schedule of p: microbatch i is perm[i].
void Rename(const std::vector<int>& perm, Schedule& s) {
  for (std::vector<Slot>& device : s.devices)
    for (Slot& slot : device)
      if (slot.op != kNoOp) {  // the search's orders have no overlapped pairs
        const Op op = s.space.At(slot.op);
        slot.op = s.space.Id(op.kind, perm[op.microbatch], op.stage);
      }
}

// The deterministic rules, then random ones, with the microbatches in the order `perm`.
void TryGreedyIn(Context& c, const std::vector<int>& perm) {
  const Problem p = Reordered(c.problem(), perm);
  const auto consider = [&](Schedule& s) {
    Rename(perm, s);
    c.Consider(s, "greedy");
  };
  const std::int64_t cap = *std::max_element(c.budget().capacity.begin(), c.budget().capacity.end());
  std::int64_t unit = *std::max_element(c.budget().units.begin(), c.budget().units.end());
  unit = std::max<std::int64_t>(unit, 1);
  std::vector<search::GreedyRule> rules;
  for (int slope = 0; slope <= 1; ++slope)
    for (int bits = 0; bits < 64; ++bits) {
      search::GreedyRule r;
      if ((bits & 48) == 48) continue;
      r.w_first_at = (bits & 16) ? unit : (bits & 32) ? std::max<std::int64_t>(unit, cap - unit) : 0;
      r.f_cap = cap;
      r.cap_slope = slope * unit;
      r.b_before_f = (bits & 1) == 0;
      r.w_lookahead = (bits & 2) == 0;
      r.deep_first = (bits & 4) == 0;
      r.banker = (bits & 8) == 0;
      if (p.v == 1 && !r.banker) continue;  // the same rule at one chunk
      rules.push_back(r);
    }
  Schedule s;
  for (const search::GreedyRule& r : rules) {
    if (c.Stop()) return;
    if (search::GreedyOrder(p, c.budget(), r, c.rng(), s)) consider(s);
  }
  const int random_rules = 200;
  for (int i = 0; i < random_rules && !c.Stop(); ++i) {
    std::mt19937_64& rng = c.rng();
    search::GreedyRule r;
    r.f_cap = std::max<std::int64_t>(unit, cap - static_cast<std::int64_t>(rng() % 3) * unit);
    r.cap_slope = static_cast<std::int64_t>(rng() % 2) * unit;
    r.b_before_f = rng() % 4 != 0;
    r.w_lookahead = rng() & 1;
    r.deep_first = rng() & 1;
    r.banker = p.v == 1 || (rng() & 1);
    const int w_first = static_cast<int>(rng() % 3);
    r.w_first_at = w_first == 0 ? 0 : w_first == 1 ? unit : std::max<std::int64_t>(unit, cap - unit);
    r.noise = 0.02 * static_cast<double>(1 + rng() % 10);
    if (search::GreedyOrder(p, c.budget(), r, rng, s)) consider(s);
  }
}

void TryGreedy(Context& c) {
  for (const std::vector<int>& perm : MicrobatchOrders(c.problem())) TryGreedyIn(c, perm);
}

// What ValidateTimeline costs, in placements of the same problem (measured
// at 8.4 M ops: the ops listed as PlacedOps, then checked).
constexpr int kValidationPlacements = 12;

// With comms: the exact search on the latency model of CommRelaxation
// (src/core/search_bound.h), within the phase's time and the evaluations
// left, from the best comm order's relaxed placement. No comm placement
// ends before the relaxation's optimum, so when the search finishes, the
// optimum is a lower bound of every comm placement within the budget.
void RaiseBoundToRelaxedOptimum(Context& c, double deadline) {
  Problem relaxed = c.problem();
  relaxed.comms = CommModel{};
  SearchOptions o = c.options();
  o.progress = nullptr;
  o.time_limit_seconds = std::max(1e-3, deadline - c.Seconds());
  if (o.max_evaluations > 0) o.max_evaluations = std::max<std::int64_t>(1, o.max_evaluations - c.evaluated());
  Context r(relaxed, o, c.budget());
  r.set_lower_bound(c.lower_bound());
  Schedule best = c.best();
  const Tick makespan = r.Evaluate(best);
  if (makespan != kNone) r.Offer(best, makespan, "relaxed");
  const bool finished = search::ExactSearch(r) && (!r.Stopped() || r.Proven());
  c.CountEvaluations(r.evaluated());
  if (finished && r.best_makespan() != kNone) c.set_lower_bound(std::max(c.lower_bound(), r.best_makespan()));
}

// Re-places the best order on `given` (the problem as asked: with
// recompute, its R ops go in right before their B), validates it and fills
// the result.
Result<SearchResult> Finish(Context& c, const Problem& given, SearchResult r) {
  Problem p = given;
  p.hold = HoldMode::kResident;  // the budget's own accounting
  Schedule best = c.best();
  if (!search::Fits(c.budget(), c.problem(), best))
    return Fail(ErrorCode::kInternal, "search: the best schedule exceeds the budget");
  Error e = CheckComplete(c.problem(), best);
  if (e.code != ErrorCode::kOk) return Fail(ErrorCode::kInternal, "search: " + e.message);
  if (Recomputes(p))
    if (e = InsertRecompute(p, best); !e.ok()) return Fail(ErrorCode::kInternal, "search: " + e.message);
  Result<Timeline> t = PlaceRun(p, std::move(best));  // with comms: lowered and placed as simulate does
  if (!t.ok()) return Fail(ErrorCode::kInternal, "search: " + t.error().message);
  if ((Recomputes(p) || p.comms.enabled()) && t->makespan != c.best_makespan())  // R right before B: B folded
    return Fail(ErrorCode::kInternal, "search: the result re-placed ends at " + std::to_string(t->makespan) +
                                          ", not " + std::to_string(c.best_makespan()));
  TimelineToCheck check;
  check.P = p.P;
  check.S = p.stages();
  check.M = p.M;
  check.placement = p.placement;
  check.comm = p.comm;
  check.costs = p.costs;
  check.microbatch_weights = MicrobatchWeights(p);
  check.recompute_at = p.recompute_at;
  check.ops = t->Ops();
  // The independent check of the placement (validate.h) costs about a dozen
  // placements: on a large problem it runs only if the time limit allows.
  // It checks the latency model: a comm placement is not checked there.
  if (p.comm_hops.empty() && !p.comms.enabled() && c.TimeLeftFor(kValidationPlacements)) {
    const std::vector<Violation> v = ValidateTimeline(check);
    if (!v.empty()) return Fail(ErrorCode::kInternal, "search: the result does not validate: " + v[0].message);
    r.validated = true;
  }
  r.timeline = std::move(*t);
  r.timeline.schedule.name = "search";
  r.peak_per_device = search::PeakUnits(c.budget(), p, r.timeline.schedule);
  if (r.budget_unit == "bytes")  // with the static bytes, comparable with the limit
    for (int d = 0; d < p.P; ++d) r.peak_per_device[d] += r.budget - c.budget().capacity[d];
  r.found_by = c.found_by();
  r.evaluated = c.evaluated();
  r.lower_bound = c.lower_bound();
  r.optimal = r.optimal || r.timeline.makespan <= c.lower_bound();
  r.seconds = c.Seconds();
  return r;
}

}  // namespace

Result<SearchResult> Search(const Problem& problem, const SearchOptions& options) {
  Error e = CheckOptions(problem, options);
  if (e.code != ErrorCode::kOk) return e;
  const bool bytes = options.max_activations == 0;
  Budget budget = bytes ? search::ByteBudget(problem) : search::SetBudget(problem, options.max_activations);
  SearchResult r;
  r.budget_unit = budget.unit;
  r.budget = bytes ? problem.memory.limit : options.max_activations;
  // With recompute the methods order F, B and W of a problem whose B costs
  // R + B (R right before B, waiting on B's gradient, starts and ends as that
  // B would); the budget counts the set shrinking between F and R.
  // With comms the methods see each hop's transfer time as its latency,
  // the bound holds for the comm placement (CommRelaxation), and each
  // candidate is placed with its comm ops.
  if (Error ce = CheckCommsLower(problem); !ce.ok()) return ce;
  const Problem ordered = search::CommRelaxation(search::FoldedRecompute(problem));
  Context c(ordered, options, std::move(budget));
  c.set_lower_bound(search::LowerBound(ordered, search::BoundBudget(c.budget())).Max());

  const double limit = options.time_limit_seconds;
  c.set_phase("seeds");
  TrySeeds(c, r);
  c.set_phase("greedy");
  c.set_phase_deadline(0.3 * limit);
  TryGreedy(c);
  // The exact search orders microbatches as given, each alike: with
  // per-microbatch costs it proves nothing, and only the bound can. With
  // comms its finishing proves nothing of the comm placement (its model
  // times each hop as a fixed latency): it runs on the relaxation instead,
  // whose optimum bounds every comm placement.
  const bool small = ordered.Space().size() <= options.exact_max_ops && !PerMicrobatch(problem);
  if (small && problem.comms.enabled() && !c.Stopped()) {
    c.set_phase("exact");
    c.set_phase_deadline(0.9 * limit);
    RaiseBoundToRelaxedOptimum(c, 0.9 * limit);
  }
  if (small && !problem.comms.enabled() && !c.Stopped()) {
    c.set_phase("exact");
    c.set_phase_deadline(0.9 * limit);
    const bool finished = search::ExactSearch(c);
    r.optimal = finished && !c.Stopped();
    if (finished && c.Proven()) r.optimal = true;
    // A finished search proves the best optimal: the bound rises to it.
    if (r.optimal) c.set_lower_bound(c.best_makespan());
  }
  if (!r.optimal && !c.Stopped()) {
    c.set_phase("local");
    c.set_phase_deadline(limit);
    search::LocalSearch(c);
  }
  return Finish(c, problem, std::move(r));
}

}  // namespace ppsim

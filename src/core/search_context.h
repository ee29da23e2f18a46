// The state every search method shares: the problem, the budget, the bound,
// the best schedule so far, the clock and the random source. One method
// hands a candidate order to Consider(), which places it (the fast placer is
// the oracle), keeps it if it fits and is shorter, and counts it. With the
// communication model on (Problem::comms), the oracle is the comm placement
// instead: each order lowered by the problem's rule (LowerComms) and placed
// with its SEND/RECV ops (RunCommsInto), its makespan the step's end, as
// `simulate --comms` places it.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "search_budget.h"
#include "ppsim/comm_run.h"
#include "ppsim/search.h"
#include "ppsim/timeline.h"

namespace ppsim::search {

inline constexpr Tick kNone = -1;

class Context {
 public:
  Context(const Problem& problem, const SearchOptions& options, Budget budget);

  const Problem& problem() const { return problem_; }
  const Budget& budget() const { return budget_; }
  const SearchOptions& options() const { return options_; }
  std::mt19937_64& rng() { return rng_; }

  // Places `s` (taken back afterwards, unchanged): its makespan, or kNone
  // when it deadlocks. Counts one evaluation. Does not check the budget.
  Tick Evaluate(Schedule& s);
  // Start and end ticks (by OpId) of the last schedule Evaluate placed.
  Tick last_start(OpId id) const { return last().Start(id); }
  const std::vector<Tick>& last_end() const { return last().end; }
  // True when candidates are placed with comm ops (problem().comms on).
  bool comms() const { return problem_.comms.enabled(); }
  // Evaluate + budget check + keep if strictly shorter than the best.
  // Returns the makespan (kNone if it deadlocks or does not fit).
  Tick Consider(Schedule& s, const std::string& found_by);
  // Keeps an already evaluated, fitting schedule if strictly shorter.
  bool Offer(const Schedule& s, Tick makespan, const std::string& found_by);

  // Counts one branch-and-bound node as an evaluation (so that
  // max_evaluations bounds the exact search too).
  void CountNode() { ++evaluated_; }
  // Counts the evaluations of a search run beside this one.
  void CountEvaluations(std::int64_t n) { evaluated_ += n; }
  Tick best_makespan() const { return best_makespan_; }
  const Schedule& best() const { return best_; }
  const std::string& found_by() const { return found_by_; }
  std::int64_t evaluated() const { return evaluated_; }
  Tick lower_bound() const { return lower_bound_; }
  void set_lower_bound(Tick bound) { lower_bound_ = bound; }
  // True once the best meets the bound: nothing left to find.
  bool Proven() const { return best_makespan_ != kNone && best_makespan_ <= lower_bound_; }

  double Seconds() const;
  // True when the time or evaluation limit is reached, the best is proven,
  // or the current phase's deadline (seconds since the start) has passed.
  // The time limit bounds the whole command, so the search stops early by
  // Reserve(): the time the work after it (the final re-placement, its
  // validation and the metrics) takes.
  bool Stop();
  // True once the search must stop starting new work for the time limit:
  // the clock plus Reserve() has reached it. Reads the clock.
  bool OutOfTime() const { return Seconds() + Reserve() >= options_.time_limit_seconds; }
  // Five evaluations' time (the slowest seen): the final completeness and
  // budget checks, Place, budget peaks and metrics are one pass over the ops
  // each. About 0 on small problems.
  double Reserve() const { return 5 * slowest_evaluation_; }
  // True if work costing `placements` evaluations, and the reserve, fit in
  // the time left. Always true on small problems (not timed).
  bool TimeLeftFor(int placements) const {
    return !large_ || Seconds() + (placements + 5) * slowest_evaluation_ <= options_.time_limit_seconds;
  }
  void set_phase_deadline(double seconds) {
    phase_deadline_ = seconds;
    phase_over_ = Seconds() >= seconds;
  }
  // True once the whole search must end (not just the phase).
  bool Stopped() const { return stopped_; }
  void set_phase(const std::string& phase) { phase_ = phase; }

 private:
  void MaybeReport();
  const Timeline& last() const { return comms() ? comm_run_.timeline : scratch_; }
  Error Place(Schedule& s);

  Problem problem_;
  SearchOptions options_;
  Budget budget_;
  std::mt19937_64 rng_;
  Timeline scratch_;
  CommScratch comm_scratch_;  // with comms: RunCommsInto's buffers and its last run
  CommRun comm_run_;
  Schedule best_;
  Tick best_makespan_ = kNone;
  std::string found_by_;
  std::int64_t evaluated_ = 0;
  Tick lower_bound_ = 0;
  std::chrono::steady_clock::time_point start_;
  double next_report_ = 1.0;  // first progress line after about a second
  std::string phase_ = "seeds";
  bool stopped_ = false;
  double phase_deadline_ = 1e300;
  bool phase_over_ = false;
  std::int64_t calls_ = 0;
  // Problems this large are timed at each evaluation and Stop() reads the
  // clock at every call: one evaluation takes longer than a clock read.
  bool large_ = false;
  double slowest_evaluation_ = 0;  // seconds
};

}  // namespace ppsim::search

#include "search_context.h"

#include <algorithm>

#include "ppsim/comm_lowering.h"
#include "ppsim/placement.h"

namespace ppsim::search {
namespace {

// From this many ops on, an evaluation takes tens of microseconds or more,
// and reading the clock (tens of nanoseconds) around it costs nothing.
constexpr std::int64_t kLargeOps = 4096;

}  // namespace

Context::Context(const Problem& problem, const SearchOptions& options, Budget budget)
    : problem_(problem), options_(options), budget_(std::move(budget)), rng_(options.seed),
      start_(std::chrono::steady_clock::now()), large_(problem.Space().size() >= kLargeOps) {}

double Context::Seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

// On success `s` is in last().schedule; on error it is left where it was
// (PlaceInto and RunCommsInto both promise that).
Error Context::Place(Schedule& s) {
  Error e = PlaceInto(problem_, std::move(s), scratch_);
  if (!comms() || !e.ok()) return e;
  // An order that deadlocks in the latency model deadlocks with comm ops
  // too (a comm placement would be a placement of it), and the fast placer
  // says so for a fraction of what lowering it and naming the cycle cost.
  s = std::move(scratch_.schedule);
  Result<CommProgram> program = LowerComms(problem_, s);  // the rule `simulate --comms` lowers by
  if (!program) return program.error();
  return RunCommsInto(problem_, std::move(s), *program, problem_.comms, comm_scratch_, comm_run_);
}

Tick Context::Evaluate(Schedule& s) {
  ++evaluated_;
  const double t0 = large_ ? Seconds() : 0;
  const Error e = Place(s);
  if (large_) slowest_evaluation_ = std::max(slowest_evaluation_, Seconds() - t0);
  if (e.code != ErrorCode::kOk) return kNone;  // a deadlock, of the order or of its comm program
  Timeline& t = comms() ? comm_run_.timeline : scratch_;
  s = std::move(t.schedule);
  return t.makespan;
}

Tick Context::Consider(Schedule& s, const std::string& found_by) {
  if (!Fits(budget_, problem_, s)) return kNone;
  const Tick makespan = Evaluate(s);
  if (makespan != kNone) Offer(s, makespan, found_by);
  return makespan;
}

bool Context::Offer(const Schedule& s, Tick makespan, const std::string& found_by) {
  if (best_makespan_ != kNone && makespan >= best_makespan_) return false;
  best_ = s;
  best_makespan_ = makespan;
  found_by_ = found_by;
  return true;
}

bool Context::Stop() {
  if (stopped_) return true;
  if (Proven()) return stopped_ = true;
  if (options_.max_evaluations > 0 && evaluated_ >= options_.max_evaluations) return stopped_ = true;
  // The clock is read every 64 calls on small problems: the methods call
  // Stop() per candidate or node.
  if ((++calls_ & 63) != 0 && !large_) return phase_over_;
  const double seconds = Seconds();
  if (seconds + Reserve() >= options_.time_limit_seconds) return stopped_ = true;
  if (seconds >= next_report_) MaybeReport();
  phase_over_ = seconds >= phase_deadline_;
  return phase_over_;
}

void Context::MaybeReport() {
  next_report_ = Seconds() + 0.25;
  if (!options_.progress) return;
  SearchProgress p;
  p.seconds = Seconds();
  p.evaluated = evaluated_;
  p.best = best_makespan_ == kNone ? 0 : best_makespan_;
  p.lower_bound = lower_bound_;
  p.phase = phase_;
  options_.progress(p);
}

}  // namespace ppsim::search

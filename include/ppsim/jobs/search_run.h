// `ppsim search` as one library call, shared by the CLI and Python's
// ppsim.search(): the request as the user states it (the CLI's flags, in
// text, checked here so that both front ends report a bad value with the
// same line and exit code), the search itself (core's Search), and what is
// printed of its result: the summary line and the --json object.
#pragma once

#include <functional>
#include <string>

#include "ppsim/error.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/run.h"
#include "ppsim/search.h"

namespace ppsim::jobs {

struct SearchRequest {
  io::ProblemOptions problem;      // -P, -M, --chunks, --cost, --comm, --cost-file, --memory-limit, ...
  std::string placement = "loop";  // "loop" or "vshape"
  bool chunks_given = false;       // false: vshape runs 2 chunks per device
  std::string max_activations;     // stage-sets per device; "" = not given (then --memory-limit is the budget)
  std::string time_limit = "2";    // seconds, > 0
  std::string seed = "1";          // 0 .. 2^31-1
};

// The best schedule found, as a run (named "search", measured), and what
// the search found out about it: its bound, who found it, the fixed
// schedules tried. result.timeline is moved into run.timeline (empty here).
struct SearchRun {
  Run run;
  SearchResult result;
};

// Checks the request (kInvalidValue naming the flag, kPrecondition for a
// budget below the minimum, kUsage for a link parameter without a comms
// rule: it would be ignored) and searches; errors are Search()'s otherwise.
// `progress` is called about every 0.25 s (may be empty).
Result<SearchRun> RunSearch(const SearchRequest& request,
                            std::function<void(const SearchProgress&)> progress = nullptr);

// (makespan - lower bound) / makespan; 0 for an empty timeline.
double SearchGap(const SearchRun& run);

// The two lines `ppsim search` prints under its chart (each ends in "\n"):
// the problem; then the budget, makespan, lower bound, gap, who found it,
// and the best fixed schedule.
std::string SearchSummaryLine(const SearchRun& run);

// The `ppsim search --json` object, one line without its newline: simulate's JSON plus lower_bound, gap,
// optimal, found_by, evaluated, seconds, budget, fixed_schedules,
// zb_auto_makespan (when a Zero Bubble greedy fits), and the byte figures
// when the problem has a bytes model.
std::string SearchResultJson(const SearchRun& run);

}  // namespace ppsim::jobs

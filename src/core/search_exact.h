// Exact search for small instances: a depth-first branch and bound over
// every order. It builds a schedule op by op in order of start tick (ties
// by device), each op starting at max(its device free, its dependency's end
// + latency). Every earliest-start schedule is the result of exactly one
// such sequence (sort its ops by start, then device), so finishing the
// search without finding a shorter schedule proves the best one optimal.
// Ops of no duration (an empty stage's, Problem::empty_stages) can start at
// the tick of the op they need or follow on their device: after one, any op
// may start at the same tick, so every schedule is still the result of some
// sequence (at one tick: the ops of no duration in dependency order, then
// the others by device), if no longer of exactly one.
// Forwards on stage 0 go in microbatch order (microbatches are alike, so
// any schedule can be relabelled that way). A branch is cut when its bound
// (each device's remaining work after the current tick; each ready op's
// remaining chain) reaches the best makespan known.
#pragma once

#include "search_context.h"

namespace ppsim::search {

// Returns true iff the search finished (the context's best is optimal).
bool ExactSearch(Context& context);

}  // namespace ppsim::search

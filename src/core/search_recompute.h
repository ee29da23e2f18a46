// Recompute in the search (recompute.h): the search orders F, B and W only,
// and puts each R(m,s) right before its B(m,s) in the result. R waits on
// B's gradient (RecomputeAt::kBeforeB) and B waits on R, so the pair starts
// when that B alone would and lasts R + B: the orders are placed on a
// problem whose B costs R + B, and the budget (search_budget.h) counts the
// set shrinking to its inputs between F and R.
#pragma once

#include "search_budget.h"
#include "ppsim/problem.h"

namespace ppsim::search {

// `problem` with each recomputed stage's B cost R + B and recompute off;
// `problem` itself when it does not recompute. Every method places, bounds
// and times orders on it.
Problem FoldedRecompute(const Problem& problem);

// The budget the lower bound reads: each set counted as what it holds at
// least from the start of F to the end of W — its kept inputs with
// recompute (freed by B no more than that) — so that the bound's memory
// parts (fill, drain, throughput) stay bounds. `budget` itself without.
Budget BoundBudget(const Budget& budget);

}  // namespace ppsim::search

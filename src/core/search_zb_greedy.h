// The Zero Bubble team's automatic scheduler (sail-sg/zero-bubble-pipeline-
// parallelism, scheduler/zb.py, manual_order), rewritten for ppsim's budget
// so that the search starts from what that tool would hand a user. One
// chunk per device, loop placement. It walks microbatch by microbatch: a
// warm-up of as many forwards as fit before the first backward arrives
// (within the budget), then per microbatch one forward per device (skipped
// where a device ahead would stall), one backward per device, and W only
// where they fill a gap no larger than the largest bubble so far or free
// memory for a forward. Three switches give eight variants.
#pragma once

#include <vector>

#include "search_budget.h"
#include "ppsim/schedule.h"

namespace ppsim::search {

struct ZbGreedyVariant {
  bool allow_bubble_before_first_b = false;
  bool prioritize_b = false;
  bool no_bubble_greedy = false;
};

// Every one of the eight variants that fits (the tool gives up when a
// forward cannot fit and no W is left to free memory). Empty unless v = 1
// and loop placement.
std::vector<Schedule> ZbGreedyOrders(const Problem& problem, const Budget& budget);

}  // namespace ppsim::search

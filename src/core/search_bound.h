// A lower bound on the makespan of every schedule within a budget (the
// derivation is in docs/search.md): the critical path of one microbatch,
// each device's work after the earliest tick it can start, the fill that
// the budget forces before a device's first backward, the drain after its
// last forward, and the throughput limit the budget sets (every set is held
// at least one round trip; a device holds at most its capacity at once).
#pragma once

#include "search_budget.h"
#include "ppsim/problem.h"

namespace ppsim::search {

struct BoundParts {
  Tick critical_path = 0;  // one microbatch alone
  Tick device_work = 0;    // max over devices: earliest start + work
  Tick fill = 0;           // max over devices: forced idle before the first B
  Tick drain = 0;          // max over devices: last F, then its chain to the end
  Tick throughput = 0;     // max over devices: sets × round trip / capacity
  Tick Max() const;
};

// REQUIRES: every capacity > 0 (the budget is at least the minimum).
BoundParts LowerBound(const Problem& problem, const Budget& budget);

// With the communication model on: `problem` with the latency model that no
// comm placement of the same order beats (docs/search.md, "With
// communication"). A transfer starts no earlier than its producer's end and
// lasts latency + bytes ÷ bandwidth, and the consumer waits for it; a
// device runs its computes in its order, one at a time; the step ends no
// earlier than its last compute. So each compute starts no earlier than
// where Place() puts it with that transfer time as the latency of its hop
// (comm_hops), and the bound of that problem bounds the comm placements.
// `comms` stays on (the oracle places with it; comm_hops are not used
// there). Without comms, `problem` unchanged.
Problem CommRelaxation(const Problem& problem);

}  // namespace ppsim::search

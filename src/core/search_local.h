// Local search over per-device orders, from the best schedule found so
// far. A move takes one op out of a device's queue and puts it back a few
// places earlier or later. Most moves are aimed: on the critical path of
// the current order, an op that starts exactly when the op before it on its
// device ends can only start earlier if the two change places, so those
// pairs are what the moves pull apart. Moves that keep the makespan are
// accepted too (the search walks plateaus); a run without progress is
// kicked with a few random moves. Every candidate goes through the budget
// check and the placer. Runs until the context says stop.
#pragma once

#include "search_context.h"

namespace ppsim::search {

void LocalSearch(Context& context);

}  // namespace ppsim::search

// Greedy list scheduling under the budget: time runs forward, and whenever
// a device is free it starts the ready op its rule ranks first (each stage's
// F, B and W in microbatch order). A rule is a handful of knobs; the search
// tries many, and random ones, and keeps what the placer says is shortest.
#pragma once

#include <cstdint>
#include <random>

#include "search_budget.h"
#include "ppsim/schedule.h"

namespace ppsim::search {

struct GreedyRule {
  // A device starts a forward only while it holds at most f_cap units
  // afterwards (clamped to its capacity), less cap_slope units per device
  // index (device d: f_cap - d·cap_slope; 1F1B-like shapes hold less downstream).
  std::int64_t f_cap = 0;
  std::int64_t cap_slope = 0;
  bool b_before_f = true;   // a ready B goes before a ready F (else F first)
  // A ready W goes before a ready F while the device holds at least
  // w_first_at units (0 = W always last): frees a set for the next forward.
  std::int64_t w_first_at = 0;
  bool w_lookahead = true;  // no W when an F or B becomes ready before the W would end
  bool deep_first = true;   // chunks: among ready ops, the later stage first
  // Chunks: admit a microbatch to a device only with room for all its
  // chunks' sets (never deadlocks on memory); else any F that fits.
  bool banker = true;
  double noise = 0;  // probability of a uniformly random ready op instead
};

// Builds every device's order. Returns false if the rule runs into a
// memory deadlock (every device waits, no ready op fits).
bool GreedyOrder(const Problem& problem, const Budget& budget, const GreedyRule& rule, std::mt19937_64& rng,
                 Schedule& out);

}  // namespace ppsim::search

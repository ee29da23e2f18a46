// The memory budget of a search, in integer units per device: stage-sets
// counted as chunk sets (a device may hold max_activations·v of them), or
// activation bytes against the limit left after the device's static bytes.
// A set is taken when F(m,s) starts and given back when W(m,s) ends — part
// of it when B(m,s) ends, with the bytes model's freed_by_b_percent.
// With recompute (recompute.h) a set shrinks to its layer inputs (`kept`)
// when F ends and is whole again from the start of R(m,s): the search
// orders F, B and W only, B standing for R then B (R right before its B),
// and a placed result lists its R ops.
// Because a device runs one op at a time, what it holds when an op starts
// is a function of its order alone: Fits() needs no placement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::search {

struct Budget {
  std::vector<std::int64_t> capacity;  // per device
  std::vector<std::int64_t> units;     // per stage: taken at the start of F
  std::vector<std::int64_t> by_b;      // per stage: given back at the end of B (the rest at the end of W)
  // per stage: what the set keeps from the end of F to the start of R — its
  // layer inputs with recompute (0 stage-sets; RecomputeInputBytes), else
  // the whole set (= units).
  std::vector<std::int64_t> kept;
  std::string unit;                    // "stage-sets" or "bytes"
};

// max_activations stage-sets per device: capacity max_activations·v chunk sets.
Budget SetBudget(const Problem& problem, std::int64_t max_activations);
// problem.memory: activation bytes against limit − static bytes per device.
Budget ByteBudget(const Problem& problem);

// What an op of `kind` on `stage` needs free when it starts (F its set; R,
// or B standing for R then B, what F did not keep), and by how much what
// its device holds changes once it has ended. `r_listed`: the queue lists
// its R ops (a placed result); otherwise B stands for R then B.
std::int64_t TakenAt(const Budget& budget, OpKind kind, int stage, bool r_listed);
std::int64_t HeldChange(const Budget& budget, OpKind kind, int stage, bool r_listed);

// Highest units each device holds while it runs its queue in order (the
// allocator-style peak). REQUIRES: a complete split-backward schedule.
std::vector<std::int64_t> PeakUnits(const Budget& budget, const Problem& problem, const Schedule& schedule);
bool Fits(const Budget& budget, const Problem& problem, const Schedule& schedule);
// The same for one device's queue.
bool DeviceFits(const Budget& budget, const OpSpace& space, const std::vector<Slot>& queue, std::int64_t capacity);

}  // namespace ppsim::search

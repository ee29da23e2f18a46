// An OpGraph is the general form of what placement honours: every op (by
// OpId) has its own duration, the device that runs it and any number of
// dependencies, each with a latency class (an index into a small table of
// ticks; class 0 is always 0 ticks, a dependency on the same device). The
// chain placer (placement.h) handles the common case of one dependency per
// op and one cost per (kind, stage) at full speed; schedules that need more
// — sequence slices, whose forward also waits on the previous slice on the
// same stage (slices.h) — are placed over an OpGraph by PlaceGraph.
//
// Storage is compressed rows: op i's dependencies are
// deps[first[i] .. first[i+1]), 8 bytes each, so a graph costs
// 4 (first) + 4 (device) + 8 (duration) + 8·(dependencies) bytes per op.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"
#include "ppsim/schedule.h"

namespace ppsim {

struct GraphDep {
  OpId op = kNoOp;                  // the op waited on
  std::uint32_t latency_class = 0;  // index into OpGraph::latency
};

struct OpGraph {
  std::vector<Tick> duration;         // by OpId
  std::vector<std::int32_t> device;   // by OpId; -1: no such op
  std::vector<std::uint32_t> first;   // by OpId, one more than ids: CSR row starts
  std::vector<GraphDep> deps;
  std::vector<Tick> latency{0};       // ticks by latency class; class 0 = 0

  std::int64_t ids() const { return static_cast<std::int64_t>(duration.size()); }
  // Starts the rows of `n` ids, each with no dependency yet.
  void Reset(std::int64_t n);
  // Appends a dependency of op `id`. REQUIRES: ids are given in increasing
  // order (every dependency of id before any of id+1); Seal() after the last.
  void Add(OpId id, OpId dep, std::uint32_t latency_class);
  void Seal();
  // The latency class with `ticks`, added to the table if new.
  std::uint32_t LatencyClass(Tick ticks);

 private:
  OpId open_ = 0;  // the row Add() writes to
};

// Names an op in messages ("F3.1@s0").
using OpNamer = std::function<std::string(OpId)>;

// Places `queues` (each device's slots in order; no overlapped pairs) over
// `graph`: each op starts at max(end of the previous op on its device, end
// of each dependency + its latency). Writes end[id] and start[id] for every
// op of the queues (both sized graph.ids(), other entries -1) and returns
// the makespan. O(ops + dependencies).
// REQUIRES: every dependency of a queued op is queued too, on the device
// graph.device names.
// Returns kDeadlock naming the full cycle of waits when the orders can never
// complete: "deadlock: device 0 waits on F0.1@s1 before F1.0@s0; device 1
// waits on F1.0@s0 before F0.1@s1" — a device may wait on itself (its own
// later op).
Result<Tick> PlaceGraph(const OpGraph& graph, const std::vector<std::vector<Slot>>& queues, Tick* end, Tick* start,
                        const OpNamer& name);

}  // namespace ppsim

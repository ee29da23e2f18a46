// Joining a sharded sweep. `ppsim check SCENE --sweep ... --shard I/N --json`
// run for I = 1..N (a job array: Slurm, a Kubernetes Job, GNU parallel) gives
// N objects; MergeSweepShards turns them into exactly the object the unsplit
// `ppsim check SCENE --sweep ... --json` prints: tried and skipped summed,
// counterexamples smallest first as the unsplit sweep orders them (sweep.h),
// the smallest skipped point named.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"

namespace ppsim::scene {

struct MergedSweep {
  bool ok = true;    // no counterexample in any shard
  std::string json;  // the line the unsplit sweep's --json prints, without its newline
};

struct ShardFile {
  std::string name;  // names the file in errors
  std::string text;  // its JSON
};

// REQUIRES nothing of the inputs: each must be a shard object (it has
// "shard"), all of one sweep (the same scene text, --set, --sweep and N),
// every shard 1..N exactly once, each with as many points as its share of
// the grid. Errors, each one line naming the file and the field: kParse (not
// JSON, a number beyond a double such as 1e400, nesting deeper than 64
// levels), kTooLarge (a sweep of more than kMaxSweepPoints points),
// kInvalidValue (not a shard, a count beyond the grid, shards of different
// sweeps, a shard twice or missing).
Result<MergedSweep> MergeSweepShards(const std::vector<ShardFile>& shards);

}  // namespace ppsim::scene

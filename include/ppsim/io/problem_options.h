// A problem as a user states it, in text: the values of the CLI's -P, -M,
// --chunks, --cost, --cost-per, --comm, --hold, --cost-file and
// --memory-limit, which are
// also the Python module's keyword arguments. ToProblem checks every value
// and names the field (the key: "P", "chunks", "costs") in its errors, as
// Python's keyword arguments are named; the CLI spells it as its flag.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim::io {

struct ProblemOptions {
  std::string P = "4";
  std::string M = "6";
  std::string chunks = "1";
  std::string cost;          // "" = F=1,B=1,W=1, or the cost file's (cost_spec.h)
  std::string comm;          // "" = 0, or the cost file's; "c" or per hop "c0:c1:..."
  std::string hold = "held";
  std::string cost_per = "stage";  // what a cost describes: "stage" (default) or "chunk" (cost_scale.h)
  std::string cost_file;     // docs/costs.md; the values above win over it
  std::string memory_limit;  // bytes per device; wins over the file's
  std::string group;         // "" = the schedule's default (Megatron's microbatch group = P)
  bool no_overlap = false;   // F&B pairs run as F then B (Problem::overlap)
  // Sequence slices (slices.h): "" = the key's default.
  std::string slices, slice_costs, seq_len, hidden;
  std::string microbatch_costs;  // "" = 1 each; "w0:w1:..." M values
  std::string microbatch_lengths, length_range, length_seed, length_cost;  // microbatch_lengths.h; "" = not given
  // Recompute as an op (recompute.h): "" = the keys' defaults (off,
  // before_b, 0); recompute_inputs a fraction "0.125" or "1/8".
  std::string recompute, recompute_at, recompute_inputs;
  // Communication as ops (docs/comms.md): "" = off, or the keys comms,
  // link.latency, link.bandwidth, link.concurrency, link.bytes, link.send_release.
  std::string comms;
  std::string link_latency;
  std::string link_bandwidth;
  std::string link_concurrency;
  std::string link_bytes;
  std::string link_send_release;  // "step_end" or "completion"
  // A model file (docs/costs.md) and a Megatron layout string (docs/layouts.md),
  // both or neither: the stages, v and per-stage costs summed from the
  // model's layers (io::ApplyModelLayout); then `cost` must be empty.
  std::string model;
  std::string model_json;  // the model as JSON text instead of a file (Python's dict, ReadModel)
  std::string layout;
};

// Builds the Problem; kInvalidValue (kTooLarge past a limit) naming the
// field on a bad value ("P: 'x' is not a whole number").
Result<Problem> ToProblem(const ProblemOptions& options);

// The key of the first link parameter (link.latency, ...) `options` gives,
// or "" when none is given.
std::string FirstLinkKey(const ProblemOptions& options);

// kUsage naming the first link parameter given when `options` set no comm
// model (comms empty or "none"), which is the only one that reads them:
// "link.latency is a parameter of the comm model: give comms ... or drop it".
// A command whose runs may turn comms on later (compare --with comms=...)
// checks that instead.
Error CheckLinkHasComms(const ProblemOptions& options);

// Parses a whole number into [min, max]; an Error naming `field` otherwise:
// "P: 'x' is not a whole number", "P must be ≥ 1, got 0".
Error ParseIntField(const std::string& field, const std::string& text, long long min, long long max, int& out);

}  // namespace ppsim::io

// `ppsim search --model FILE`'s library half, which the CLI and Python's
// ppsim.search(model=...) both call: the model's split, chunk count,
// placement and order searched jointly under a byte budget (split_search.h),
// compared with the even split and Megatron's split flags on the same model
// and budget, and written out for Megatron (a layout string and its flags),
// torchtitan (a [parallelism] fragment) and PyTorch (the schedule's CSV).
// docs/search.md ("Splitting a model") shows the output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/split_search.h"

namespace ppsim::jobs {

// The request as typed (the CLI's flags; "" = not given).
struct SplitRequest {
  std::string model;         // a model file (docs/costs.md): TOML, or JSON when it ends in .json
  std::string model_json;    // or the model as JSON text (Python's dict); wins when given
  std::string P, M;          // required
  std::string comm = "0";    // ticks per cross-device hop
  std::string memory_limit;  // bytes per device: 85899345920, 80GiB, 80GB; required
  std::string placement;     // "loop", "vshape"; "" = both
  std::string chunks;        // loop placement's chunks per device; "" = 1 and 2
  std::string time_limit = "10";
  std::string seed = "1";
};

// "80GiB" -> 85899345920: a whole number, optionally followed by KiB, MiB,
// GiB, TiB (powers of 1024) or KB, MB, GB, TB (of 1000). kInvalidValue
// naming `field` otherwise, kTooLarge past 2^62.
Result<std::int64_t> ParseBytes(const std::string& field, const std::string& text);

// One row of the comparison: a split, how it is named, and its order
// search under the same budget.
struct SplitRow {
  std::string name;          // "found", "even", "megatron --account-for-...", ...
  ModelSplit split;
  std::string layout;        // Megatron layout string ("" for a V placement)
  bool fits = false;
  std::int64_t minimum_bytes = 0;  // its need when it does not fit
  Tick makespan = 0;
  std::string found_by;      // the order search's
  std::int64_t peak_bytes = 0;     // fullest device, allocator view
};

struct SplitReport {
  SplitSearchResult result;
  std::vector<SplitRow> rows;   // found first, then even and Megatron's
  std::string megatron;         // flags that run the found split, or "none: " and why (a V split has no string)
  std::string torchtitan;       // a TOML [parallelism] fragment, or why none
  std::string pytorch_csv;      // the found schedule, as PyTorch's _dump_csv writes it
  std::string text;             // what `ppsim search --model` prints
  std::string json;             // what it prints with --json (one line)
};

Result<SplitReport> RunSplitSearch(const SplitRequest& request);

}  // namespace ppsim::jobs

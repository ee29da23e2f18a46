// `ppsim layout`'s library half, which the CLI and Python both call: a
// Megatron layout string read for P ranks (ppsim/layout.h) and reported as
// a table of (pp rank, vp stage) → layers, as JSON, and written back as the
// Megatron flags and the torchtitan setting that reproduce the split.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/layout.h"

namespace ppsim::jobs {

// The command line's values as typed; "" = not given.
struct LayoutArgs {
  std::string P;
  std::string chunks;
  std::string num_layers;
  std::string mtp_layers;
  // Megatron's split flags, in place of a layout string (layout_flags.h).
  std::string decoder_first_pipeline_num_layers;
  std::string decoder_last_pipeline_num_layers;
  bool account_for_embedding_in_pipeline_split = false;
  bool account_for_loss_in_pipeline_split = false;
};

// The options the values give, or an Error naming the field ("P", "chunks",
// "num_layers", "mtp_layers"): not a whole number or < 1 (< 0 for the
// layer counts) is kInvalidValue, past kMaxLayoutLength kTooLarge. P is
// required.
Result<LayoutOptions> ParseLayoutArgs(const LayoutArgs& args);

struct LayoutReport {
  Layout layout;
  std::string megatron_layout;  // the split as Megatron builds it, written back (WriteLayoutString)
  std::string megatron_flags;   // the Megatron-LM arguments that run it
  // torchtitan's parallelism.module_fqns_per_model_part as a JSON list of
  // lists, or "" with torchtitan_refusal saying why (MTP layers).
  std::string torchtitan_modules;
  std::string torchtitan_refusal;
  std::string text;  // the table and the two write-backs, as `ppsim layout` prints them
  std::string json;  // {"layout", "P", "v", ..., "stages": [[{...} per vp stage] per pp rank], ...}
};

// Reads `text` (ReadLayout, whose Error it returns) and builds the report.
Result<LayoutReport> MakeLayoutReport(std::string_view text, const LayoutOptions& options);

// `ppsim layout`: the report for the layout string `text`, or, when `text`
// is empty, for the split Megatron's flags in `args` give (its even split
// when none is set; num_layers is then required), written as a layout
// string (MegatronFlagStages, WriteLayoutString). A string and split flags
// together are refused (kPrecondition), as Megatron refuses them.
Result<LayoutReport> LayoutReportFor(std::string_view text, const LayoutArgs& args);

}  // namespace ppsim::jobs

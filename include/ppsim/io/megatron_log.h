// Megatron-LM's training log, reduced to what `ppsim explain` reads from it:
// the arguments block rank 0 prints at start (megatron/training/arguments.py,
// _print_args) and the per-rank timers block the last rank prints every
// log interval with `--timing-log-level 2 --timing-log-option all`
// (megatron/core/timers.py, Timers.log -> _get_all_ranks_time_string):
//
//   ------------------------ arguments ------------------------
//     pipeline_model_parallel_size .................... 4
//     ...
//   -------------------- end of arguments ---------------------
//    [2026-...] iteration       20/     100 | consumed samples: ...
//   times across ranks (ms):
//     forward-backward:
//        rank  0: 1234.56
//        rank  1: 1234.01
//     forward-compute:
//        ...
//
// Each timer is the time a world rank spent in it, summed over the step's
// microbatches and averaged over the log interval (normalizer =
// log_interval, training.py training_log), in ms with two decimals, read
// exactly into integer ns. Megatron prints a rank only when its time is > 0
// (a first stage never receives forwards), so an absent rank is 0.
// The file is read line by line: memory holds one timers block at a time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"

namespace ppsim::io {

// The arguments explain needs (names as Megatron's argparse spells them).
struct MegatronArgs {
  int line = 0;                   // the block's first line (1-based)
  int P = 0;                      // pipeline_model_parallel_size
  int v = 1;                      // virtual_pipeline_model_parallel_size (None: 1)
  int tp = 1, cp = 1;             // tensor_ / context_model_parallel_size
  int dp = 0;                     // data_parallel_size
  int world_size = 0;             // world_size; 0 if not printed
  std::int64_t global_batch = 0;  // global_batch_size
  std::int64_t micro_batch = 0;   // micro_batch_size
  int group = 0;                  // microbatch_group_size_per_vp_stage; 0: not printed (Megatron's default is P)
  int log_interval = 0;           // 0 if not printed
  bool tp_pp_dp = false;          // use_tp_pp_dp_mapping: order tp-cp-ep-pp-dp instead of tp-cp-ep-dp-pp
};

// One `times across ranks (ms):` block.
struct MegatronTimers {
  int line = 0;                 // its header line
  std::int64_t iteration = -1;  // of the last "iteration N/ T |" line before it; -1 if none
  // ns per world rank; -1 where Megatron printed no line for the rank (0 ms).
  std::map<std::string, std::vector<Tick>> by_name;
  std::map<std::string, int> name_line;  // each timer's line
};

struct MegatronLog {
  std::string file;
  MegatronArgs args;
  MegatronTimers timers;  // the block read: --step's iteration, else the last with forward-compute
};

// True iff `path` is a readable file whose first non-blank byte opens no
// JSON document ('{' or '[') and which is not gzip: text, read as a log.
bool LooksLikeTextLog(const std::string& path);

// Reads the log. `iteration` >= 0 picks the timers block printed after that
// iteration's line, else the last block with a forward-compute timer.
// Errors, one line: kIo if unreadable; kParse with FILE:LINE for a timer or
// argument line that does not parse, for a log with neither block (naming
// every format explain reads), for an arguments block without
// pipeline_model_parallel_size (or the batch sizes), for timers that are
// only (min, max) across ranks (--timing-log-option minmax), or without
// forward-compute (--timing-log-level below 2); kInvalidValue for an unknown
// iteration.
Result<MegatronLog> ReadMegatronLog(const std::string& path, std::int64_t iteration = -1);

}  // namespace ppsim::io

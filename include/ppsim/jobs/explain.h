// `ppsim explain`'s library half: a measured pipeline-parallel training
// step, read from one PyTorch profiler trace per rank (io/kineto_trace.h),
// explained against ppsim's exact placement (docs/explain.md).
//
// What it finds: each rank's compute order as PyTorch action strings and
// the registry schedule it equals, if any; the stage -> rank map, P, M, v;
// the fitted costs (median GPU time per stage and kind) and per-hop
// latencies; the ranks' clock skews. Then three runs on one axis, each in
// exact integer ns: measured (the trace, skew-corrected), replay (the same
// orders placed with every op's measured duration and the fitted
// latencies) and ideal (the same orders with the median costs, the faults
// found removed). Findings are ranked by lost_us: how much sooner the step
// would end without their cause, by re-placing the run with it removed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"
#include "ppsim/timeline.h"

namespace ppsim::jobs {

struct ExplainOptions {
  std::int64_t step = -1;   // ProfilerStep#N; -1: each rank's last complete step
  std::string expect_file;  // a cost file (docs/costs.md, ticks = ns) of expected costs; "" = none
  bool equal_stages = false;  // stages are declared equal: expect each kind's median over stages
  // Called after each further GiB read of a trace (io::KinetoReadOptions); nullptr = none.
  std::function<void(const std::string& file, std::int64_t bytes)> progress;
};

// Median GPU time of one (stage, kind), in ns, and its spread.
struct FittedCost {
  char kind = 'F';      // PyTorch's letter: F, B (full backward), I (input gradient), W; &: an overlapped pair (FB)
  Tick median = 0;
  Tick spread = 0;      // median absolute deviation
  int count = 0;
};

struct StageCosts {
  int stage = 0;
  int rank = 0;
  std::vector<FittedCost> kinds;  // in the order F, B, I, W, those the run has
};

struct Hop {
  int a = 0;  // ranks, a < b
  int b = 0;
  Tick latency = 0;    // ns, fitted
  int pairs = 0;       // dependency pairs seen across it
};

struct RunFigures {
  Tick makespan = 0;        // ns
  std::vector<Tick> busy;   // per rank
  std::vector<Tick> idle;   // makespan - busy
};

struct Finding {
  std::string kind;        // hiccup, slow_link, straggler, host_bound, order
  int rank = -1;           // -1: none
  std::vector<int> ranks;  // a hop's two ranks, else empty
  std::string op;          // "1B2" for a hiccup, a schedule name for order, else ""
  Tick lost = 0;           // ns
  std::string text;        // one line
};

// A part of a trace without PP: ranges (DeepSeek's "attn(F)", ...).
struct PartFigures {
  std::string name;  // "attn"
  char kind = 'F';   // F, B or W
  int layer = 0;     // the how-manieth range of this name and kind in the step
  Tick cpu = 0;      // ns, the CPU range
  Tick gpu = 0;      // ns, its kernels' GPU time, all streams
  std::vector<std::pair<int, Tick>> streams;  // (stream, GPU ns) in stream order
};

// The parts together: one overlapped forward+backward chunk pair.
struct PairFigures {
  Tick span = 0;         // first kernel start to last kernel end
  Tick f = 0, b = 0, w = 0;  // GPU time of the F, B and W parts' compute kernels
  Tick comm = 0;         // communication kernels' GPU time
  Tick hidden_comm = 0;  // of it, the time some compute kernel runs at once
};

// An op of the measured run that started late against the ideal run: at
// least 1 % of the ideal makespan after the ideal placement starts it.
struct LateOp {
  int rank = 0;
  std::string op;  // "1B2"
  Tick late = 0;   // ns: measured start - ideal start, both from their run's first op
  Tick start = 0;        // ns from the measured run's first op (ExplainRuns::measured)
  Tick ideal_start = 0;  // ns from the ideal run's first op
};

// The measured and the ideal run as timelines on one axis, in ns ticks from
// each run's first op (the measured run's ops at their skew-corrected GPU
// times; the ideal placed by ppsim): what a picture draws (explain_picture.h).
struct ExplainRuns {
  Timeline measured;
  Timeline ideal;
};

// What a Megatron-LM timers log gives per pipeline rank (the slowest of its
// tensor-, context- and data-parallel members), in ns per step; empty for
// traces (docs/explain.md).
struct TimerFigures {
  std::int64_t iteration = -1;         // the log's iteration read; -1: none printed before it
  int world_size = 0;
  std::vector<Tick> pipeline;          // forward-backward less the gradient-sync timers in it
  std::vector<Tick> grad_sync;         // those timers (all-grads-sync, embedding-grads-all-reduce, ...)
  std::vector<Tick> compute;           // forward-compute + backward-compute
  std::vector<Tick> p2p;               // the send/recv timers, summed
  std::vector<Tick> exposed_p2p;       // p2p beyond the rank's idle in the replay
  bool empty() const { return pipeline.empty(); }
};

struct ExplainReport {
  std::vector<std::string> files;  // by rank
  std::int64_t step = -1;          // rank 0's step (-1: no ProfilerStep)
  int P = 0, M = 0, v = 0;
  bool split = false;              // I/W actions present
  std::string placement;           // "loop" or "v-shape"
  std::string schedule;            // the registry schedule equal to the orders; "" = none
  std::vector<std::vector<std::string>> orders;  // per rank, compute actions as PyTorch strings
  std::vector<int> stage_to_rank;
  std::vector<StageCosts> costs;
  std::vector<Hop> hops;
  std::vector<Tick> skew;          // ns per rank, rank 0 = 0: subtract from a rank's times
  RunFigures measured, replay, ideal;
  std::vector<Finding> findings;   // by lost, largest first
  std::vector<LateOp> late;        // by rank, in each rank's order
  std::shared_ptr<const ExplainRuns> runs;  // null for a trace of parts
  // A trace without PP: ranges but with part ranges: its parts and their
  // pair; everything above but files and step is then empty.
  std::vector<PartFigures> parts;
  PairFigures pair;
  // A Megatron-LM timers log (no per-op times): its per-rank figures; the
  // orders are then Megatron's, placed, and hops, skew and late are empty.
  TimerFigures timers;
};

// Reads `paths` (files, or folders whose *.json / *.json.gz files are read;
// a folder's JSON files without traceEvents are skipped; a file named alone
// that is text is read as a Megatron-LM timers log, io/megatron_log.h). Errors: those of
// ReadKinetoTrace; kInvalidValue for two files claiming one rank or a rank
// missing; kBadSchedule naming the action for actions that are not a legal
// schedule; kDeadlock for orders that cannot complete; kIo, kParse and
// kInvalidValue for the expect file.
Result<ExplainReport> Explain(const std::vector<std::string>& paths, const ExplainOptions& options);

// `ppsim explain --json`: orders, stage_to_rank, costs_us, hops,
// measured/replay/ideal, skew_us, findings, and the schedule's shape.
std::string ExplainJson(const ExplainReport& report);
// The text report.
std::string ExplainText(const ExplainReport& report);
// A cost file (docs/costs.md) of the fitted costs and latencies in ns ticks,
// for `simulate --cost-file` and `--expect`; kUsage for a trace of parts,
// which fits no per-stage costs.
Result<std::string> ExplainCostFile(const ExplainReport& report);

// True iff `path` names a picture `explain -o` draws (a still picture,
// render::IsStillPicture: .svg, .png, .html; explain_picture.h); any other
// -o gets the report.
bool IsExplainPicture(const std::string& path);

}  // namespace ppsim::jobs

// What the parts of `ppsim explain` (src/jobs/explain*.cc) hand each other:
// the measured ops of every rank and the pipeline they form.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsim/generators.h"
#include "ppsim/io/kineto_trace.h"
#include "ppsim/jobs/explain.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::jobs::explain {

// One compute action as it ran. An overlapped pair, "(0F7;7B3)OVERLAP_F_B",
// is one op: letter '&' (DeepSeek's F&B), stage and microbatch its forward's,
// pair_* its backward's; its GPU time is the pair's span.
struct MeasuredOp {
  std::string action;  // "1B2", "(0F7;7B3)OVERLAP_F_B"
  int rank = 0;
  int stage = 0;
  int microbatch = 0;
  char letter = 'F';   // F, B (full backward), I, W, & (an overlapped pair)
  OpKind kind = OpKind::kF;
  int pair_stage = -1;  // a pair's backward: stage, microbatch, letter (B or I)
  int pair_microbatch = 0;
  char pair_letter = 0;
  bool pair() const { return pair_stage >= 0; }
  OpId Id(const OpSpace& space) const { return space.Id(kind, microbatch, stage); }
  OpId PairId(const OpSpace& space) const { return space.Id(OpKind::kB, pair_microbatch, pair_stage); }
  Tick start = 0;      // GPU, ns; the rank's clock until FitClock corrects it
  Tick end = 0;
  Tick cpu_start = 0;
  Tick first_launch = -1;
  Tick duration() const { return end - start; }
};

// The schedule as run: ppsim's problem and order, and the measured ops.
struct Pipeline {
  Problem problem;    // P, M, v, placement; costs and latencies not set
  Schedule schedule;  // one slot per compute op, in each rank's order
  std::vector<std::vector<MeasuredOp>> ops;  // per rank, in order
  std::vector<int> stage_to_rank;
  bool split = false;
};

// A ppsim timeline file (the `simulate --json` shape, or a bare ops list)
// as one trace per device, ticks as ns (explain_timeline.cc). Errors: the
// timeline reader's; kBadSchedule for ops explain does not read
// (overlapped pairs, R, slices); kInvalidValue for a device without ops.
Result<std::vector<io::KinetoTrace>> TimelineAsTraces(const std::string& path);

// A Megatron-LM timers log explained (explain_megatron.cc): Megatron's order
// placed on each stage's mean costs. Errors: ReadMegatronLog's; kParse or
// kInvalidValue naming file:line for a timer without a rank or an argument
// that does not fit (world_size, the batch sizes).
Result<ExplainReport> ExplainMegatronLog(const std::string& path, const ExplainOptions& options);

// The pipeline the traces (indexed by rank) ran; kBadSchedule naming the
// action when they do not form one.
Result<Pipeline> BuildPipeline(const std::vector<io::KinetoTrace>& traces);
// `generator`'s order on the pipeline's shape (P, M, v, placement, split
// backward), or nothing when it does not run on that shape.
std::optional<Schedule> RegistryOrder(const Pipeline& pipeline, const GeneratorInfo& generator);
// The registry schedule whose order equals the pipeline's, or "".
std::string MatchRegistry(const Pipeline& pipeline);

// Skews and hop latencies from the dependency pairs across ranks; moves
// every op onto rank 0's clock (report.skew, report.hops).
void FitClock(Pipeline& pipeline, ExplainReport& report);
// Median costs per stage and kind (report.costs).
void FitCosts(const Pipeline& pipeline, ExplainReport& report);

// The latency of the dependency from stage a to stage b (adjacent), from
// the fitted hops; 0 on one rank.
Tick HopLatency(const Pipeline& pipeline, const std::vector<Hop>& hops, int a, int b);

// Places the pipeline's orders with `durations` (by OpId) and `hops`; the
// figures of the run. kDeadlock if the orders cannot complete.
// With `placed`, the placement too.
Result<RunFigures> PlaceRun(const Pipeline& pipeline, std::vector<Tick> durations, const std::vector<Hop>& hops,
                            Timeline* placed = nullptr);
// Every op's measured duration, by OpId.
std::vector<Tick> MeasuredDurations(const Pipeline& pipeline);
// The measured run's figures (after FitClock).
RunFigures MeasuredFigures(const Pipeline& pipeline);

// Expected costs (ns) per stage and letter, from --expect or --equal-stages;
// empty when neither is given.
struct Expected {
  std::vector<std::vector<Tick>> by_stage;  // [stage][F, B, I, W, F&B]; 0 = unknown
  bool empty() const { return by_stage.empty(); }
};
Result<Expected> LoadExpected(const Pipeline& pipeline, const ExplainReport& report, const ExplainOptions& options);
constexpr int kKinds = 5;
int LetterIndex(char letter);  // F 0, B 1, I 2, W 3, & (an overlapped pair) 4

// The parts of a trace without PP: ranges and their pair (report.parts, .pair).
void MeasureParts(const io::KinetoTrace& trace, ExplainReport& report);

// Median cost (ns) per stage and letter ([stage][F, B, I, W, F&B]; 0 =
// none); a pair's is at its forward's stage, as Costs::fb.
using MedianCosts = std::vector<std::vector<Tick>>;
// The registry schedule of the same shape (P, M, v, placement, split or
// not) that ends soonest on `medians` and `hops` while holding no more
// activations per device (allocator view) than the pipeline's own orders,
// as an `order` finding if it ends before `ideal_makespan`; else none.
Result<std::vector<Finding>> FindBetterOrder(const Pipeline& pipeline, const MedianCosts& medians,
                                             const std::vector<Hop>& hops, Tick ideal_makespan);

// Ranks the findings and fills report.ideal (faults removed); the ideal
// run's placement into *ideal.
Error FindCauses(const Pipeline& pipeline, const Expected& expected, ExplainReport& report, Timeline* ideal);

// The measured run as a timeline from its first op (after FitClock), and
// the ops late against `ideal` (report.late, report.runs).
void KeepRuns(const Pipeline& pipeline, Timeline ideal, ExplainReport& report);

}  // namespace ppsim::jobs::explain

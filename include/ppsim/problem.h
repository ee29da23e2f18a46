// A Problem is everything about a pipeline except the order of work: P
// devices, M microbatches, v chunks per device (S = v·P virtual stages), the
// stage-to-device placement, per-kind per-stage costs and the communication
// latency added on cross-device dependencies. A Problem is a plain value;
// ValidateProblem() checks it before anything is allocated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/comm_options.h"
#include "ppsim/error.h"
#include "ppsim/memory_model.h"
#include "ppsim/op.h"

namespace ppsim {

// Where virtual stage s lives.
enum class Placement : std::uint8_t {
  kLoop,    // Megatron / PyTorch: device s mod P
  kVShape,  // ZB-V / DualPipeV: device d holds stages d and 2P-1-d (v = 2)
  // DualPipe: two model copies in opposite directions. Stages [0, P) are
  // copy 0 (stage s on device s) and carry microbatches [0, M/2); stages
  // [P, 2P) are copy 1 (stage P+i on device P-1-i, as in kVShape) and carry
  // microbatches [M/2, M). v = 2; see OpSpace for the two chains.
  kDualPipe,
  // Any stage -> device map (Problem::stage_device), as PyTorch infers it
  // from a schedule CSV: Hanayo's waves, BitPipe's two V's, ... Each device
  // holds v stages; its chunk c is its c-th stage in stage order.
  kMap,
};

// What "activations held" means (docs/semantics.md).
enum class HoldMode : std::uint8_t {
  kHeld,      // [end of F, start of B): stashed between the passes (default)
  kResident,  // [start of F, end of B] — or end of W when the backward is split
};

// How a microbatch's cost splits over its sequence slices (slices.h).
enum class SliceRule : std::uint8_t {
  kEqual,   // each slice 1/K
  kCausal,  // linear part per token plus causal attention over the slice's prefix
  kList,    // Problem::slice_weights, relative
};

// Where microbatch lengths come from (microbatch_lengths.h).
enum class LengthSource : std::uint8_t {
  kNone,     // no lengths (the default): Problem::microbatch_weights, or 1 each
  kList,     // Problem::length_list, M values
  kUniform,  // M seeded draws in length_range
};
// How a microbatch's length becomes its cost weight (microbatch_lengths.h).
enum class LengthCost : std::uint8_t {
  kLinear,  // L
  kCausal,  // L·(12·hidden + 1 + L): linear layers plus causal attention
};

// Recompute (activation checkpointing) as an op R before B (recompute.h).
enum class RecomputeMode : std::uint8_t {
  kOff,        // no R ops (the default)
  kFull,       // every stage runs R, its F again (Megatron --recompute-granularity full)
  kSelective,  // R runs the recomputed layers' F only (Costs::r, from a model file)
};
// Where R waits (recompute.h): Megatron runs the recompute inside the
// backward call, after the output gradient has arrived; Mario moves it
// earlier, into the idle time before that gradient.
enum class RecomputeAt : std::uint8_t {
  kBeforeB,  // R right before its B, after B's incoming gradient (Megatron)
  kEarly,    // R right before its B in the queue, waiting only on its F (Mario-like)
};

// What a cost value describes (docs/costs.md; cost_scale.h does the rest).
enum class CostBasis : std::uint8_t {
  kStage,  // one device's share of the model (a whole stage at v = 1); a
           // chunk costs 1/ChunksPerStage of it, in rescaled ticks (default)
  kChunk,  // one op exactly as given, whatever v is (the pre-0.2 meaning)
};

// Op durations. Each vector holds one value per virtual stage, or a single
// value that applies to every stage (with CostBasis::kStage, also one value
// per stage of the model on one device, P values). All values must be ≥ 1,
// except a per-stage value of a stage listed in Problem::empty_stages, which
// may be 0.
// Until ScaleCosts() has run (Problem::ticks_per_unit == 0) they are in the
// user's units; Place() reads them as ticks per op.
//
// One model of work (docs/costs.md): a stage's backward is B (input
// gradient) + W (weight gradient). A schedule that splits the backward runs
// them as two ops; one that does not runs a full backward, B + W (or BW when
// given), as one op. Empty b and w mean "not given": ScaleCosts() derives
// them from BW (default 1) — halves of it when neither is given — and puts
// an unsplit run's full backward into b. Read unscaled, an empty b or w is
// 1 tick.
struct Costs {
  std::vector<Tick> f{1};  // forward
  std::vector<Tick> b;     // input-gradient pass (a full backward in an unsplit run, once scaled)
  std::vector<Tick> w;     // weight-gradient pass; used only by split schedules
  // Overlapped forward+backward pair (DualPipe's "F&B"), per stage of the
  // forward op; empty = no overlap benefit, the pair costs f + its backward
  // (b, or FullBackward when the pair's backward is full).
  std::vector<Tick> fb;
  // Full backward (input and weight gradients in one op): an unsplit
  // schedule's backward, and Slot::full in a split one; empty = b + w of
  // its stage (1 when b and w are not given either).
  std::vector<Tick> bw;
  // Recompute R (Problem::recompute on), per stage: the forward run again;
  // empty = f (full recompute). 0 for a stage = no R there (selective
  // recompute of a stage with no recomputed layer). Values ≥ 0.
  std::vector<Tick> r;

  Tick Of(OpKind kind, int stage) const;
  Tick FullBackward(int stage) const;
  Tick Overlapped(int f_stage, int b_stage, bool full_backward = false) const;
};

struct Problem {
  int P = 4;  // devices (pipeline ranks)
  int M = 6;  // microbatches
  int v = 1;  // chunks (virtual stages) per device
  // Megatron's microbatch_group_size_per_vp_stage for the schedules that take
  // one (interleaved, combined-1f1b); 0 = the schedule's default.
  int group = 0;
  Placement placement = Placement::kLoop;
  // kMap only: stage_device[s] is the device of virtual stage s (S values).
  std::vector<int> stage_device;
  Costs costs;
  // Latency added to a dependency whose two ops sit on different devices.
  Tick comm = 0;
  // Optional per-hop latency: comm_hops[s] applies between stages s and s+1
  // (size S-1). Empty = `comm` everywhere.
  std::vector<Tick> comm_hops;
  HoldMode hold = HoldMode::kHeld;
  // Whether the model defines an overlapped forward+backward call (DeepSeek's
  // overlapped_forward_backward): schedules with F&B pairs (dualpipe,
  // dualpipev) run each as one compound op. false (`--no-overlap`): each
  // pair runs as its F, then its B — two ops, as the reference code does
  // when the model defines no such call.
  bool overlap = true;
  CostBasis cost_basis = CostBasis::kStage;
  // 0 while costs and comm are in the user's units. ScaleCosts() rewrites
  // them into ticks per op and sets this to the ticks in one unit: 2 means
  // "1 tick = 1/2 of a unit".
  std::int64_t ticks_per_unit = 0;
  // Bytes held per device and its limit (memory_bytes.h); off by default.
  MemoryModel memory;
  // Optional duration of every op, in ticks, by OpId (Space().size()
  // values; ids no op uses are ignored): a measured run replayed with each
  // op's own duration (`ppsim explain`). Empty (the default) = `costs`, one
  // value per kind and stage. When given it replaces `costs` for every op
  // Place() places: a full backward lasts its B id's entry, an overlapped
  // pair its slot's first op's. Values in [0, kMaxCost]; the timeline then
  // stores every start (timeline.h). Not scaled by ScaleCosts().
  std::vector<Tick> op_durations;
  // Sequence slices (slices.h): each microbatch cut into `slices` equal
  // parts of its sequence, run as ops of their own (Seq1F1B). 1 (the
  // default) = whole microbatches. Op ids then count slice units: id
  // microbatch u is microbatch u / slices, slice u % slices.
  int slices = 1;
  SliceRule slice_rule = SliceRule::kEqual;  // how a microbatch's cost splits over its slices
  std::vector<Tick> slice_weights;           // kList: one relative cost per slice
  std::int64_t seq_len = 0;                  // tokens per microbatch; 0 = not given
  std::int64_t hidden = 0;                   // hidden size, for kCausal; 0 = not given
  // Per-microbatch costs (packed samples of unequal lengths): microbatch m's
  // ops cost microbatch_weights[m] times their stage's cost. Empty (the
  // default) = 1 each. Non-empty: M values, placed over the graph (slices.h).
  std::vector<Tick> microbatch_weights;
  // Microbatch lengths in tokens (microbatch_lengths.h), turned into weights
  // by `length_cost`; read through MicrobatchWeights(), never both with
  // microbatch_weights.
  LengthSource lengths = LengthSource::kNone;
  std::vector<std::int64_t> length_list;   // kList: M lengths
  std::vector<std::int64_t> length_range;  // kUniform: MIN, MAX tokens, inclusive (empty = not given)
  std::uint64_t length_seed = 1;           // kUniform: splitmix64's starting state
  LengthCost length_cost = LengthCost::kLinear;
  // Communication as ops (comm_options.h): off by default, and then `comm`
  // is the latency model; on, each schedule is lowered to SEND/RECV ops
  // placed on their links and `comm`/`comm_hops` are not used.
  CommModel comms;
  // Stages with no layers (a Megatron layout's empty stages, layout.h), in
  // increasing order: their per-stage costs may be 0 ticks, so their ops take
  // no time, keep their place in each device's order and pass data on
  // (docs/semantics.md). Every other stage's costs stay ≥ 1. Empty = none.
  std::vector<int> empty_stages;
  // Recompute as an op (recompute.h): off by default. Between F and R a
  // stage holds only its layer inputs: memory.input_bytes when given (a
  // model file's checkpoint_bytes), else recompute_inputs_num/den of its
  // activation bytes (a fraction in [0, 1]).
  RecomputeMode recompute = RecomputeMode::kOff;
  RecomputeAt recompute_at = RecomputeAt::kBeforeB;
  std::int64_t recompute_inputs_num = 0;
  std::int64_t recompute_inputs_den = 1;

  int stages() const { return P * v; }
  // The op-id space of this problem (two chains for kDualPipe), in slice units.
  OpSpace Space() const {
    return OpSpace(stages(), M * slices, placement == Placement::kDualPipe ? P : 0, recompute != RecomputeMode::kOff);
  }
  int DeviceOf(int stage) const {
    if (placement == Placement::kLoop) return stage % P;
    if (placement == Placement::kMap) return stage_device[stage];
    return stage < P ? stage : 2 * P - 1 - stage;
  }
  // Latency between adjacent stages a and b (|a-b| = 1), 0 on one device.
  Tick CommBetween(int a, int b) const {
    if (DeviceOf(a) == DeviceOf(b)) return 0;
    if (comm_hops.empty()) return comm;
    return comm_hops[a < b ? a : b];
  }
};

// Hard limits, checked before allocating (docs/reliability.md).
inline constexpr int kMaxDevices = 4096;
inline constexpr int kMaxMicrobatches = 1 << 20;
inline constexpr int kMaxChunks = 64;
inline constexpr int kMaxSlices = 1024;  // sequence slices per microbatch
inline constexpr std::int64_t kMaxOps = 200'000'000;  // ids across all kinds
inline constexpr Tick kMaxCost = Tick{1} << 40;      // keeps sums far from overflow
// P × M × Σ over stages of (F + B + W + FB + 3·comm): a bound on P × makespan,
// so idle device-ticks and every tick sum stay inside int64 (ppsim/checked.h).
inline constexpr Tick kMaxWork = Tick{1} << 62;

// Returns an Error naming the first bad field, or kOk.
Error ValidateProblem(const Problem& problem);

std::string PlacementName(Placement placement);
std::string HoldModeName(HoldMode hold);
std::string CostBasisName(CostBasis basis);  // "stage", "chunk"
std::string RecomputeName(RecomputeMode mode);  // "off", "full", "selective"
std::string RecomputeAtName(RecomputeAt at);    // "before_b", "early"

}  // namespace ppsim

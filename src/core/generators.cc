#include "ppsim/generators.h"

#include <string>

#include "core/interleaved_order.h"
#include "core/vshape_greedy.h"

namespace ppsim {
namespace {

Error Ok() { return Error::Ok(); }

Error CheckNone(const Problem&) { return Ok(); }

// Interleaved 1F1B's rounds, which ZB-1P (`name`) shares.
Error CheckRounds(const Problem& p, const std::string& name) {
  if (p.group != 0) return CheckMegatronGroup(p, name);
  // PyTorch groups microbatches into rounds of M / max(1, M / P); Megatron-LM
  // needs M to be a multiple of P, which is the case its order is defined for.
  const int rounds = std::max(1, p.M / p.P);
  if (p.M % rounds != 0)
    return Fail(ErrorCode::kPrecondition,
                name + " needs M divisible by its number of rounds max(1, M/P) = " + std::to_string(rounds) +
                    "; got M = " + std::to_string(p.M) + ", P = " + std::to_string(p.P) +
                    " (use M a multiple of P, e.g. " + std::to_string(rounds * p.P) + ")");
  return Ok();
}

Error CheckInterleaved(const Problem& p) { return CheckRounds(p, "interleaved"); }

Error CheckCombined1F1B(const Problem& p) {
  if (p.P == 1) {  // Megatron runs forward_backward_no_pipelining: no chunks, no groups
    if (p.v != 1)
      return Fail(ErrorCode::kPrecondition,
                  "combined-1f1b with P = 1 runs Megatron's schedule without pipelining, which does not support "
                  "model chunking; got --chunks " + std::to_string(p.v) + " (use --chunks 1)");
    return Ok();
  }
  if (p.v < 2)
    return Fail(ErrorCode::kPrecondition,
                "combined-1f1b needs --chunks ≥ 2 when P > 1 (Megatron: if enabling EP A2A overlap, "
                "virtual_pipeline_model_parallel_size must be specified when pipeline_model_parallel_size > 1); "
                "got --chunks " + std::to_string(p.v));
  return CheckMegatronGroup(p, "combined-1f1b");
}

Error CheckVHalf(const Problem& p) { return CheckVShapeGreedySize(p, "v-half"); }
Error CheckVMin(const Problem& p) { return CheckVShapeGreedySize(p, "v-min"); }

Error CheckZB1P(const Problem& p) { return CheckRounds(p, "zb1p"); }

Error CheckDualPipeV(const Problem& p) {
  if (p.M < 2 * p.P)
    return Fail(ErrorCode::kPrecondition, "dualpipev needs M ≥ 2P (as many microbatches as stages): P = " +
                                              std::to_string(p.P) + " needs M ≥ " + std::to_string(2 * p.P) +
                                              ", got M = " + std::to_string(p.M));
  return Ok();
}

Error CheckDualPipe(const Problem& p) {
  if (p.P % 2 != 0)
    return Fail(ErrorCode::kPrecondition, "dualpipe needs an even number of devices (its two directions mirror "
                                          "each other), got P = " + std::to_string(p.P) +
                                              " (use dualpipev for any P)");
  if (p.M % 2 != 0 || p.M < 2 * p.P)
    return Fail(ErrorCode::kPrecondition, "dualpipe needs an even M ≥ 2P (M/2 microbatches per direction, at least "
                                          "P each): P = " + std::to_string(p.P) + " needs M ∈ {" +
                                              std::to_string(2 * p.P) + ", " + std::to_string(2 * p.P + 2) +
                                              ", ...}, got M = " + std::to_string(p.M));
  return Ok();
}

std::vector<GeneratorInfo> Registry() {
  return {
      {"gpipe", "GPipe: every forward in microbatch order, then every backward", "one chunk per device",
       Placement::kLoop, 1, false, &GenerateGPipe, &CheckNone},
      {"1f1b", "1F1B (PipeDream-Flush): warm-up of P-1-d forwards, then one forward, one backward",
       "one chunk per device; any M ≥ 1 (M < P shortens the warm-up)", Placement::kLoop, 1, false, &Generate1F1B,
       &CheckNone},
      {"interleaved",
       "Interleaved 1F1B (Megatron-LM, PyTorch ScheduleInterleaved1F1B): v chunks per device, bubble / v; "
       "--group g = Megatron's microbatch_group_size_per_vp_stage",
       "--chunks v ≥ 1; M divisible by max(1, M/P) (PyTorch's rounds); with --group g: P ≤ g ≤ M and M mod g = 0 "
       "or ≥ P (Megatron)",
       Placement::kLoop, 0, false, &GenerateInterleaved, &CheckInterleaved, true},
      {"combined-1f1b",
       "Megatron-LM's combined 1F1B (overlap_moe_expert_parallel_comm): interleaved with one more warm-up "
       "forward, each steady step one overlapped (F;B) pair with a full backward",
       "--chunks v ≥ 2 (v = 1 when P = 1); --group g (default P): P ≤ g ≤ M, M mod g = 0 or ≥ P (Megatron)",
       Placement::kLoop, 0, false, &GenerateCombined1F1B, &CheckCombined1F1B, true},
      {"looped-bfs", "Looped BFS (PyTorch ScheduleLoopedBFS): each chunk's forwards for all microbatches, then backwards",
       "--chunks v ≥ 1", Placement::kLoop, 0, false, &GenerateLoopedBFS, &CheckNone},
      {"zb-h1",
       "ZB-H1 (Zero Bubble, Qi et al. 2024): 1F1B with B split from W, W delayed to fill the tail; bubble "
       "(P-1)(F+B-W), 1F1B's memory",
       "one chunk per device; any M ≥ 1", Placement::kLoop, 1, true, &GenerateZBH1, &CheckNone},
      {"zb-h2",
       "ZB-H2 (Zero Bubble, Qi et al. 2024): up to 2P-1 microbatches in flight, W deferred to the tail; bubble "
       "(P-1)(F+B-2W)",
       "one chunk per device; any M ≥ 1 (zero bubble at equal costs needs M ≥ 2P-1)", Placement::kLoop, 1, true,
       &GenerateZBH2, &CheckNone},
      {"zb1p", "ZB1P (PyTorch ScheduleInterleavedZeroBubble): interleaved 1F1B with B split from W; v = 1 is ZB-H1",
       "--chunks v ≥ 1; M divisible by max(1, M/P)", Placement::kLoop, 0, true, &GenerateZB1P, &CheckZB1P},
      {"zbv", "ZB-V (Zero Bubble, PyTorch ScheduleZBVZeroBubble): V-shape placement, 2 chunks per device, B split from W",
       "exactly 2 chunks per device (V-shape); any M ≥ 1", Placement::kVShape, 2, true, &GenerateZBV, &CheckNone},
      {"v-half",
       "V-Half (Qi et al. 2024, controllable memory): V-shape, B split from W, about half of 1F1B's activations; "
       "the Zero Bubble team's greedy order",
       "exactly 2 chunks per device (V-shape); any M ≥ 1; P ≤ 256 and P·M ≤ 262144 (the greedy's limits)",
       Placement::kVShape, 2, true, &GenerateVHalf, &CheckVHalf},
      {"v-min",
       "V-Min (Qi et al. 2024, controllable memory): V-shape, B split from W, about a third of 1F1B's activations; "
       "the Zero Bubble team's greedy order",
       "exactly 2 chunks per device (V-shape); any M ≥ 1; P ≤ 256 and P·M ≤ 262144 (the greedy's limits)",
       Placement::kVShape, 2, true, &GenerateVMin, &CheckVMin},
      {"dualpipe",
       "DualPipe (DeepSeek-V3, dualpipe.py): two model copies in opposite directions, overlapped F&B pairs with a "
       "full backward (--cost FB=..., --no-overlap: F then B), B/W split only in warm-up and cool-down; 2x parameters",
       "even P; even M ≥ 2P (M/2 per direction)", Placement::kDualPipe, 2, true, &GenerateDualPipe, &CheckDualPipe},
      {"dualpipev",
       "DualPipeV (DeepSeek dualpipev.py, PyTorch ScheduleDualPipeV): DualPipe folded into a V on P devices, "
       "overlapped F&B pairs with a full backward (--no-overlap: F then B)",
       "exactly 2 chunks per device (V-shape); M ≥ 2P (odd P and M are fine)", Placement::kVShape, 2, true, &GenerateDualPipeV,
       &CheckDualPipeV},
  };
}

}  // namespace

const std::vector<GeneratorInfo>& Generators() {
  static const std::vector<GeneratorInfo> registry = Registry();
  return registry;
}

const GeneratorInfo* FindGenerator(std::string_view name) {
  for (const GeneratorInfo& g : Generators())
    if (g.name == name) return &g;
  return nullptr;
}

std::string KnownScheduleNames() {
  std::string names;
  for (const GeneratorInfo& g : Generators()) names += (names.empty() ? "" : ", ") + g.name;
  return names;
}

Error ResolveRun(std::string_view name, Problem& problem) {
  const GeneratorInfo* g = FindGenerator(name);
  if (g == nullptr)
    return Fail(ErrorCode::kUnknownName,
                "unknown schedule '" + std::string(name) + "'; known: " + KnownScheduleNames());
  if (g->fixed_chunks != 0 && problem.v != g->fixed_chunks) {
    if (problem.v != 1)
      return Fail(ErrorCode::kPrecondition, g->name + " runs exactly " + std::to_string(g->fixed_chunks) +
                                                " chunk(s) per device; got --chunks " + std::to_string(problem.v));
    problem.v = g->fixed_chunks;
  }
  if (problem.group != 0 && !g->takes_group) {
    std::string takers;
    for (const GeneratorInfo& other : Generators())
      if (other.takes_group) takers += (takers.empty() ? "" : ", ") + other.name;
    return Fail(ErrorCode::kPrecondition,
                "--group applies only to " + takers + "; " + g->name + " has no microbatch groups");
  }
  problem.placement = g->placement;
  return ValidateProblem(problem);
}

Result<Schedule> Generate(std::string_view name, Problem& problem) {
  Error e = ResolveRun(name, problem);
  if (e.code != ErrorCode::kOk) return e;
  const GeneratorInfo* g = FindGenerator(name);
  e = g->check(problem);
  if (e.code != ErrorCode::kOk) return e;
  Result<Schedule> s = g->generate(problem);
  if (s.ok()) {
    s->name = g->name;
    s->split_backward = g->split_backward;
  }
  return s;
}

}  // namespace ppsim

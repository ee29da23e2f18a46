#include "ppsim/generators.h"

#include <string>

namespace ppsim {
namespace {

Error Ok() { return Error{ErrorCode::kOk, ""}; }

Error CheckNone(const Problem&) { return Ok(); }

Error CheckInterleaved(const Problem& p) {
  // PyTorch groups microbatches into rounds of M / max(1, M / P); Megatron-LM
  // needs M to be a multiple of P, which is the case its order is defined for.
  const int rounds = std::max(1, p.M / p.P);
  if (p.M % rounds != 0)
    return Fail(ErrorCode::kPrecondition,
                "interleaved needs M divisible by its number of rounds max(1, M/P) = " + std::to_string(rounds) +
                    "; got M = " + std::to_string(p.M) + ", P = " + std::to_string(p.P) +
                    " (use M a multiple of P, e.g. " + std::to_string(rounds * p.P) + ")");
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
       "Interleaved 1F1B (Megatron-LM, PyTorch ScheduleInterleaved1F1B): v chunks per device, bubble / v",
       "--chunks v ≥ 1; M divisible by max(1, M/P) (M a multiple of P for Megatron's order)", Placement::kLoop, 0,
       false, &GenerateInterleaved, &CheckInterleaved},
      {"looped-bfs", "Looped BFS (PyTorch ScheduleLoopedBFS): each chunk's forwards for all microbatches, then backwards",
       "--chunks v ≥ 1", Placement::kLoop, 0, false, &GenerateLoopedBFS, &CheckNone},
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

Result<Schedule> Generate(std::string_view name, Problem& problem) {
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
  problem.placement = g->placement;
  Error e = ValidateProblem(problem);
  if (e.code != ErrorCode::kOk) return e;
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

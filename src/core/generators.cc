#include "ppsim/generators.h"

#include <iterator>
#include <string>

#include "ppsim/recompute.h"

namespace ppsim {

// The registry, as ninja lists its tools: one row per schedule, each defined
// with its order, preconditions and closed forms in its own file. Adding a
// schedule is that file (src/core/<schedule>.cc, defining its GeneratorInfo)
// plus its declaration and its row here; the row's place is where `ppsim
// list`, error messages and docs/schedules.md show it.
extern const GeneratorInfo kGPipe;
extern const GeneratorInfo k1F1B;
extern const GeneratorInfo kInterleaved;
extern const GeneratorInfo kCombined1F1B;
extern const GeneratorInfo kLoopedBFS;
extern const GeneratorInfo kZBH1;
extern const GeneratorInfo kZBH2;
extern const GeneratorInfo kZB1P;
extern const GeneratorInfo kZBV;
extern const GeneratorInfo kVHalf;
extern const GeneratorInfo kVMin;
extern const GeneratorInfo kDualPipe;
extern const GeneratorInfo kDualPipeV;
extern const GeneratorInfo kSeq1F1B;

namespace {

constexpr const GeneratorInfo* kSchedules[] = {
    &kGPipe,         // gpipe.cc
    &k1F1B,          // one_f_one_b.cc
    &kInterleaved,   // interleaved.cc
    &kCombined1F1B,  // combined_1f1b.cc
    &kLoopedBFS,     // looped_bfs.cc
    &kZBH1,          // zb_h1.cc
    &kZBH2,          // zb_h2.cc
    &kZB1P,          // zb1p.cc
    &kZBV,           // zbv.cc
    &kVHalf,         // v_half.cc
    &kVMin,          // v_min.cc
    &kDualPipe,      // dualpipe.cc
    &kDualPipeV,     // dualpipev.cc
    &kSeq1F1B,       // seq1f1b.cc
};

}  // namespace

GeneratorList Generators() { return GeneratorList(kSchedules, std::size(kSchedules)); }

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
      return Error::Field(ErrorCode::kPrecondition, "chunks",
                          ": " + g->name + " runs exactly " + std::to_string(g->fixed_chunks) +
                              " chunk(s) per device; got " + std::to_string(problem.v));
    problem.v = g->fixed_chunks;
  }
  if (problem.group != 0 && !g->takes_group) {
    std::string takers;
    for (const GeneratorInfo& other : Generators())
      if (other.takes_group) takers += (takers.empty() ? "" : ", ") + other.name;
    return Error::Field(ErrorCode::kPrecondition, "group",
                        " applies only to " + takers + "; " + g->name + " has no microbatch groups");
  }
  if (problem.slices != 1 && !g->takes_slices) {
    std::string takers;
    for (const GeneratorInfo& other : Generators())
      if (other.takes_slices) takers += (takers.empty() ? "" : ", ") + other.name;
    return Error::Field(ErrorCode::kPrecondition, "slices",
                        " applies only to " + takers + "; " + g->name + " runs whole microbatches");
  }
  problem.placement = g->placement;
  return ValidateProblem(problem);
}

Result<Schedule> Generate(std::string_view name, Problem& problem) {
  Error e = ResolveRun(name, problem);
  if (e.code != ErrorCode::kOk) return e;
  const GeneratorInfo* g = FindGenerator(name);
  if (g->check != nullptr) {
    e = g->check(problem);
    if (e.code != ErrorCode::kOk) return e;
  }
  Result<Schedule> s = g->generate(problem);
  if (s.ok()) {
    s->name = g->name;
    s->split_backward = g->split_backward;
    if (Recomputes(problem))  // Megatron's place for R: right before its B (recompute.h)
      if (Error r = InsertRecompute(problem, *s); !r.ok()) return r;
  }
  return s;
}

}  // namespace ppsim

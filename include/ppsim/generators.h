// Schedule generators: each produces every device's queue order for a
// Problem. The registry is the single list of known schedule names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

struct GeneratorInfo {
  std::string name;           // --schedule value
  std::string description;    // one line
  std::string preconditions;  // one line, "" if none
  Placement placement = Placement::kLoop;
  int fixed_chunks = 0;       // v this schedule requires (e.g. 2 for zbv), 0 = any
  bool split_backward = false;
  // REQUIRES: the Problem passed ValidateProblem and this generator's checks.
  Result<Schedule> (*generate)(const Problem&) = nullptr;
  // Checks the schedule's own preconditions; returns kOk or kPrecondition.
  Error (*check)(const Problem&) = nullptr;
  bool takes_group = false;  // reads Problem::group (--group)
};

// Every known schedule, in the order `ppsim list` prints them.
const std::vector<GeneratorInfo>& Generators();
// nullptr if unknown.
const GeneratorInfo* FindGenerator(std::string_view name);
// "gpipe, 1f1b, ..." for error messages.
std::string KnownScheduleNames();

// Applies the generator's placement and chunk count to `problem` and
// validates it: what a run is, before its costs are scaled (cost_scale.h).
Error ResolveRun(std::string_view name, Problem& problem);

// Applies the generator's placement and chunk count to `problem`, validates
// it and the schedule's preconditions, and generates the order.
Result<Schedule> Generate(std::string_view name, Problem& problem);

// The generators (one file each).
Result<Schedule> GenerateGPipe(const Problem& problem);
Result<Schedule> Generate1F1B(const Problem& problem);
Result<Schedule> GenerateInterleaved(const Problem& problem);
Result<Schedule> GenerateCombined1F1B(const Problem& problem);
Result<Schedule> GenerateLoopedBFS(const Problem& problem);
Result<Schedule> GenerateZBH1(const Problem& problem);
Result<Schedule> GenerateZBH2(const Problem& problem);
Result<Schedule> GenerateZB1P(const Problem& problem);
Result<Schedule> GenerateZBV(const Problem& problem);
Result<Schedule> GenerateVHalf(const Problem& problem);
Result<Schedule> GenerateVMin(const Problem& problem);
Result<Schedule> GenerateDualPipe(const Problem& problem);
Result<Schedule> GenerateDualPipeV(const Problem& problem);

}  // namespace ppsim

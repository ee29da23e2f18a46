#include "ppsim/simulate.h"

#include "ppsim/comm_lowering.h"
#include "ppsim/cost_scale.h"
#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim {

Result<Timeline> Simulate(std::string_view schedule, Problem problem) {
  if (problem.ticks_per_unit == 0) {
    std::vector<Problem> one{std::move(problem)};
    Error e = ScaleRuns({std::string(schedule)}, one);
    if (e.code != ErrorCode::kOk) return e;
    problem = std::move(one[0]);
  }
  Result<Schedule> s = Generate(schedule, problem);
  if (!s.ok()) return s.error();
  return PlaceRun(problem, std::move(*s));
}

Error ScaleRuns(const std::vector<std::string>& schedules, std::vector<Problem>& problems, int* failed) {
  for (size_t i = 0; i < problems.size(); ++i) {
    // A name with no generator (a scene's "search") runs its problem as given.
    Error e = FindGenerator(schedules[i]) == nullptr ? ValidateProblem(problems[i])
                                                     : ResolveRun(schedules[i], problems[i]);
    if (e.code != ErrorCode::kOk) {
      if (failed != nullptr) *failed = static_cast<int>(i);
      return e;
    }
  }
  std::vector<bool> split;
  for (const std::string& name : schedules) {
    const GeneratorInfo* g = FindGenerator(name);
    split.push_back(g == nullptr || g->split_backward);
  }
  Result<std::int64_t> k = TicksPerUnit(problems, split);
  if (!k.ok()) return k.error();
  for (size_t i = 0; i < problems.size(); ++i) {
    Error e = ScaleCosts(problems[i], *k, split[i]);
    if (e.code != ErrorCode::kOk) {
      if (failed != nullptr) *failed = static_cast<int>(i);
      return e;
    }
  }
  return Error::Ok();
}

}  // namespace ppsim

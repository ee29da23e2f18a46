#include "ppsim/simulate.h"

#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim {

Result<Timeline> Simulate(std::string_view schedule, Problem problem) {
  Result<Schedule> s = Generate(schedule, problem);
  if (!s.ok()) return s.error();
  return Place(problem, std::move(*s));
}

}  // namespace ppsim

// Running a scene: simulate every run, then check its claims.
#include <string>

#include "ppsim/metrics.h"
#include "ppsim/scene.h"
#include "ppsim/simulate.h"

namespace ppsim {

Result<std::vector<RunResult>> SimulateScene(const Scene& scene, const MeasureOptions& measure) {
  std::vector<RunResult> runs;
  runs.reserve(scene.runs.size());
  for (const SceneRun& run : scene.runs) {
    Result<Timeline> t = Simulate(run.schedule, run.problem);
    if (!t.ok())
      return Fail(t.error().code, scene.path + ":" + std::to_string(run.pos.line) + ": run " + run.name + ": " +
                                      t.error().message);
    RunResult r;
    r.name = run.name;
    r.caption = run.caption;
    r.metrics = Measure(*t, measure);
    r.timeline = std::move(*t);
    runs.push_back(std::move(r));
  }
  return runs;
}

Result<std::vector<ClaimResult>> CheckSceneClaims(const Scene& scene, const std::vector<RunResult>& runs) {
  std::vector<ClaimResult> results;
  results.reserve(scene.claims.size());
  for (const SceneClaim& claim : scene.claims) {
    int column = 0;
    Result<ClaimResult> r = CheckClaim(claim.check, runs, scene.params, &column);
    if (!r.ok()) {
      std::string m = r.error().message;
      if (m.rfind("column ", 0) == 0 && m.find(": ") != std::string::npos) m = m.substr(m.find(": ") + 2);
      return Fail(r.error().code, scene.path + ":" + std::to_string(claim.pos.line) + ":" +
                                      std::to_string(claim.pos.column + column - 1) + ": claim: " + m);
    }
    results.push_back(std::move(*r));
  }
  return results;
}

}  // namespace ppsim

// Running a scene: simulate every run (or read it from its traces), then
// check its claims.
#include <map>
#include <memory>
#include <string>

#include "ppsim/jobs/explain.h"
#include "ppsim/metrics.h"
#include "ppsim/scene/scene.h"
#include "ppsim/search.h"
#include "ppsim/simulate.h"

namespace ppsim::scene {
namespace {

// schedule = "search": stopped by a fixed number of candidates, not by the
// clock, so that a scene renders the same schedule on every machine.
Result<Timeline> SearchRun(const SceneRun& run, const Problem& problem) {
  SearchOptions options;
  options.max_activations = run.max_activations;
  options.max_evaluations = 100'000;
  options.time_limit_seconds = 600;
  Result<SearchResult> r = Search(problem, options);
  if (!r.ok()) return r.error();
  r->timeline.problem.hold = run.problem.hold;  // measured like the scene's other runs
  return std::move(r->timeline);
}

// trace = "DIR/": the measured run or its ideal, as ppsim explain reads and
// places them, with the run's expected costs (each trace and expectation
// read once per scene).
using TraceRuns = std::map<std::string, std::shared_ptr<const jobs::ExplainRuns>>;
Result<Timeline> TraceRun(const SceneRun& run, TraceRuns& read) {
  const std::string key = run.trace + '\n' + run.expect + '\n' + (run.equal_stages ? "equal" : "");
  auto it = read.find(key);
  if (it == read.end()) {
    jobs::ExplainOptions options;
    options.expect_file = run.expect;
    options.equal_stages = run.equal_stages;
    Result<jobs::ExplainReport> r = jobs::Explain({run.trace}, options);
    if (!r) return r.error().With("trace");
    if (!r->runs)
      return Fail(ErrorCode::kInvalidValue, "trace: " + run.trace + " holds parts (no PP: ranges), no run to name");
    it = read.emplace(key, r->runs).first;
  }
  return run.as == "ideal" ? it->second->ideal : it->second->measured;
}

}  // namespace

Result<std::vector<Run>> SimulateScene(const Scene& scene, const MeasureOptions& measure) {
  // One model, one tick across the scene's runs (cost_scale.h).
  std::vector<std::string> schedules;
  std::vector<Problem> problems;
  for (const SceneRun& run : scene.runs) {
    schedules.push_back(run.schedule);
    problems.push_back(run.problem);
  }
  int failed = -1;
  TraceRuns traces;
  if (Error e = scene.traces ? Error::Ok() : ScaleRuns(schedules, problems, &failed); !e.ok()) {
    if (failed < 0) return e.At(scene.path);
    const SceneRun& run = scene.runs[failed];
    return e.With("run " + run.name).At(scene.path, run.pos.line);
  }
  std::vector<Run> runs;
  runs.reserve(scene.runs.size());
  for (size_t i = 0; i < scene.runs.size(); ++i) {
    const SceneRun& run = scene.runs[i];
    Result<Timeline> t = !run.trace.empty()         ? TraceRun(run, traces)
                         : run.schedule == "search" ? SearchRun(run, problems[i])
                                                    : Simulate(run.schedule, problems[i]);
    if (!t.ok()) return t.error().With("run " + run.name).At(scene.path, run.pos.line);
    runs.push_back(Measured(run.name, std::move(*t), measure));
  }
  return runs;
}

namespace {

// `check(i)` checks claim i; its errors are placed at the claim's position.
template <typename CheckOne>
Result<std::vector<ClaimResult>> CheckEach(const Scene& scene, CheckOne check) {
  std::vector<ClaimResult> results;
  results.reserve(scene.claims.size());
  for (size_t i = 0; i < scene.claims.size(); ++i) {
    const SceneClaim& claim = scene.claims[i];
    Result<ClaimResult> r = check(i);
    if (!r.ok()) return r.error().With("claim").At(scene.path, claim.pos.line, claim.pos.column);
    results.push_back(std::move(*r));
  }
  return results;
}

}  // namespace

Result<std::vector<ClaimResult>> CheckSceneClaims(const Scene& scene, const std::vector<Run>& runs) {
  return CheckEach(scene, [&](size_t i) { return CheckClaim(scene.claims[i].check, runs, scene.params); });
}

Result<std::vector<ClaimResult>> CheckSceneClaims(const Scene& scene, const std::vector<Claim>& parsed,
                                                  const std::vector<Run>& runs) {
  return CheckEach(scene, [&](size_t i) { return CheckClaim(parsed[i], runs, scene.params); });
}

}  // namespace ppsim::scene

// A scene file (TOML) names the parameters at the top, the runs it compares,
// the claims it makes and its words (docs/claims.md has the full format):
//
//   title = "GPipe vs 1F1B"
//   P = 4
//   M = 6
//   [[run]]
//   name = "GPipe"
//   schedule = "gpipe"
//   caption = "GPipe — all forwards, then all backwards"
//   [[claim]]
//   check = "makespan(GPipe) == makespan(1F1B)"
//   [closing]
//   lines = ["same finish: {makespan(GPipe)} cycles"]
//
// Typical use (what `ppsim check` and `ppsim render` do):
//
//   Result<Scene> scene = LoadScene(path, {"P=8", "M=16"});   // --set values
//   Result<std::vector<Run>> runs = SimulateScene(*scene);
//   Result<std::vector<ClaimResult>> claims = CheckSceneClaims(*scene, *runs);
//   if (!AllHold(*claims)) -> refuse (ErrorCode::kClaimFalse, claims[i].Explain())
//   Result<std::string> line = FillTemplate(scene->closing[0], *runs, scene->params);
//
// LoadScene checks everything it can before simulating: TOML syntax, keys,
// value types and ranges, claim and placeholder syntax, and that every run
// and parameter a claim or placeholder names exists. Its errors say
// "FILE:LINE:COL: ...", with the column inside a claim or template pointing
// at the offending token.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/claim_template.h"
#include "ppsim/claims.h"
#include "ppsim/error.h"
#include "ppsim/metrics.h"
#include "ppsim/problem.h"
#include "ppsim/render/render_settings.h"

namespace ppsim::scene {

// Where something came from in the scene file (line, column from 1; 0 = given
// by --set, not in the file).
struct SourcePos {
  int line = 0;
  int column = 0;
};

struct SceneRun {
  std::string name;      // how claims refer to it: makespan(NAME)
  std::string schedule;  // generator name ("gpipe", "1f1b", ...), or "search" (search.h)
  std::int64_t max_activations = 0;  // "search": its budget in stage-sets per device
  std::string caption;   // a template ("" if none): fill with FillTemplate
  std::string layout;    // a Megatron layout string splitting the scene's model ("" = none)
  Problem problem;       // the scene's problem with this run's overrides applied (and its layout's costs)
  SourcePos pos;         // of the [[run]] header
  // trace = "DIR/": a measured run, read by ppsim explain from the profiler
  // traces there (a folder or a file, relative to the scene; ns ticks), in
  // place of a schedule; `as` = "measured" (the trace) or "ideal" (the same
  // orders placed by ppsim at the median costs, faults removed).
  std::string trace;
  std::string as = "measured";
  // With a trace: the costs the ideal is judged against, as explain's
  // --expect (a cost file, relative to the scene, ns ticks) or
  // --equal-stages; a straggler found so is removed from the ideal.
  std::string expect;
  bool equal_stages = false;
};

struct SceneClaim {
  std::string check;  // the claim text
  SourcePos pos;      // of the first character of the claim text
};

struct Scene {
  std::string path;      // as given to LoadScene
  std::string title;     // a template ("" if none)
  std::string subtitle;  // a template ("" if none)
  Problem problem;       // top-level P, M, v (or chunks), costs, comm, hold
  std::string model;     // model = "FILE" (docs/costs.md), relative to the scene; "" = none
  // What claims and templates may name: P, M, v, comm of the top-level
  // problem, plus every other numeric top-level key, exactly.
  Params params;
  std::vector<SceneRun> runs;
  std::vector<SceneClaim> claims;
  std::vector<std::string> closing;  // templates, in order
  // The [render] table, typed and checked when the scene is loaded (errors
  // name file:line:col); the CLI's flags and Python's keywords win over it.
  render::RenderSettings render;
  bool traces = false;  // its runs are measured runs (SceneRun::trace): ticks are ns
};

// Reads and checks a scene. `overrides` are --set values "KEY=VALUE": KEY a
// top-level key (P, M, v, chunks, comm, hold, title, subtitle, a numeric
// parameter, costs, or costs.F / costs.B / costs.W / costs.FB); VALUE a TOML
// value, or bare text for a string key. A run's own P/M/... still win over a
// --set of the top-level value. Errors: kIo (unreadable), kParse (syntax,
// with FILE:LINE:COL), kInvalidValue, kUnknownName, kUsage (bad --set).
Result<Scene> LoadScene(const std::string& path, const std::vector<std::string>& overrides = {});
// The same from text already read; `path` only names it in errors.
Result<Scene> LoadSceneText(std::string_view text, const std::string& path,
                            const std::vector<std::string>& overrides = {});

// A scene parsed and checked once, then loaded under many more --set values
// (a sweep's points) without parsing the TOML or checking claims and
// templates again: they depend on the text alone, unless a --set makes a
// name appear or disappear (a per-stage cost set to one value becomes the
// parameter F), which takes the full load. Copies share the parsed text;
// Reload may run on many threads at once, each with its own *out.
class SceneSource {
 public:
  // As LoadSceneText(text, path, overrides); `text` is copied.
  static Result<SceneSource> Load(std::string_view text, const std::string& path,
                                  const std::vector<std::string>& overrides = {});
  const Scene& scene() const;  // the scene under `overrides`
  // Sets *out to LoadSceneText(text, path, overrides followed by `more`), or
  // returns that call's Error and leaves *out unchanged. REQUIRES: *out is
  // scene() or was set by an earlier Reload of this source (its storage is
  // reused).
  Error Reload(const std::vector<std::string>& more, Scene* out) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

// Simulates and measures every run, in order. Errors (a schedule's
// precondition, a deadlock, ...) are prefixed "FILE:LINE: run NAME: ".
// Claims read no time series: checks pass `measure.series = false`.
Result<std::vector<Run>> SimulateScene(const Scene& scene, const MeasureOptions& measure = {});

// Every claim of the scene against `runs` (from SimulateScene). A false claim
// is not an error (see ClaimResult::holds / AllHold); errors such as a
// division by zero say "FILE:LINE:COL: claim: ...".
Result<std::vector<ClaimResult>> CheckSceneClaims(const Scene& scene, const std::vector<Run>& runs);
// The same with the claims parsed beforehand: parsed[i] is
// ParseClaim(scene.claims[i].check) (a sweep parses them once).
Result<std::vector<ClaimResult>> CheckSceneClaims(const Scene& scene, const std::vector<Claim>& parsed,
                                                  const std::vector<Run>& runs);

}  // namespace ppsim::scene

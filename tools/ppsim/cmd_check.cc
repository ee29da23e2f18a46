// ppsim check SCENE [--set KEY=VALUE ...] [--sweep KEY=A..B ...] [--json]
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/atomic_file.h"
#include "ppsim/claims_json.h"
#include "ppsim/scene.h"
#include "ppsim/sweep.h"

namespace ppsim::cli {
namespace {

struct CheckOptions {
  std::string scene;
  std::vector<std::string> set;
  std::vector<std::string> sweep;
  bool json = false;
  int threads = 0;
};

constexpr size_t kTextCounterexamples = 20;  // the text report lists this many; --json lists all

int Emit(const std::string& out, bool ok) {
  Error e = WriteFileAtomically("-", out);
  if (e.code != ErrorCode::kOk) return Report(e);
  return ok ? 0 : ExitCode(ErrorCode::kClaimFalse);
}

int CheckOnce(const CheckOptions& o, const std::string& text) {
  Result<Scene> scene = LoadSceneText(text, o.scene, o.set);
  if (!scene) return Report(scene.error());
  Result<std::vector<RunResult>> runs = SimulateScene(*scene, MeasureOptions{.series = false});
  if (!runs) return Report(runs.error());
  Result<std::vector<ClaimResult>> claims = CheckSceneClaims(*scene, *runs);
  if (!claims) return Report(claims.error());
  const bool ok = AllHold(*claims);
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < claims->size(); ++i) {
      nlohmann::json c = ClaimResultJson((*claims)[i]);
      c["line"] = scene->claims[i].pos.line;
      list.push_back(std::move(c));
    }
    return Emit(nlohmann::json{{"ok", ok}, {"claims", list}}.dump() + "\n", ok);
  }
  std::string out;
  size_t failed = 0;
  for (size_t i = 0; i < claims->size(); ++i) {
    const ClaimResult& c = (*claims)[i];
    failed += !c.holds;
    out += std::string(c.holds ? "ok     " : "FALSE  ") + o.scene + ":" + std::to_string(scene->claims[i].pos.line) +
           ": " + c.Explain() + "\n";
  }
  out += ok ? "all " + std::to_string(claims->size()) + " claims hold\n"
            : std::to_string(failed) + " of " + std::to_string(claims->size()) + " claims are false\n";
  // A false claim's report goes to stdout with the rest; the one-line verdict to stderr.
  const int rc = Emit(out, ok);
  if (!ok) std::fprintf(stderr, "ppsim: %zu claim(s) false in %s\n", failed, o.scene.c_str());
  return rc;
}

std::string PointText(const Counterexample& c) {
  std::string s;
  for (const auto& [k, v] : c.params) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

int CheckSweep(const CheckOptions& o, const std::string& text) {
  std::vector<SweepAxis> axes;
  for (const std::string& spec : o.sweep) {
    Result<SweepAxis> a = ParseSweepAxis(spec);
    if (!a) return Report(a.error());
    axes.push_back(std::move(*a));
  }
  Result<SweepResult> r = Sweep(text, o.scene, o.set, axes, o.threads);
  if (!r) return Report(r.error());
  const bool ok = r->counterexamples.empty();
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const Counterexample& c : r->counterexamples) {
      nlohmann::json params = nlohmann::json::object();
      for (const auto& [k, v] : c.params) params[k] = v;
      nlohmann::json j = ClaimResultJson(c.claim);
      j.erase("holds");
      nlohmann::json item = {{"params", params}, {"claim", c.claim.check}, {"values", j["values"]}};
      if (j.contains("first_ahead")) item["first_ahead"] = j["first_ahead"];
      list.push_back(std::move(item));
    }
    nlohmann::json out = {{"ok", ok}, {"tried", r->tried}, {"skipped", r->skipped}, {"counterexamples", list}};
    if (r->skipped > 0) out["first_skipped"] = r->first_skip;
    return Emit(out.dump() + "\n", ok);
  }
  std::string out = "tried " + std::to_string(r->tried) + " points";
  if (r->skipped > 0) out += ", skipped " + std::to_string(r->skipped) + " (first: " + r->first_skip + ")";
  out += "; " + std::to_string(r->counterexamples.size()) + " counterexample(s)" +
         (ok ? "\n" : ", smallest first:\n");
  for (size_t i = 0; i < r->counterexamples.size() && i < kTextCounterexamples; ++i)
    out += "  " + PointText(r->counterexamples[i]) + ": " + r->counterexamples[i].claim.Explain() + "\n";
  if (r->counterexamples.size() > kTextCounterexamples)
    out += "  ... and " + std::to_string(r->counterexamples.size() - kTextCounterexamples) + " more (--json lists all)\n";
  return Emit(out, ok);
}

int Run(const CheckOptions& o) {
  Result<std::string> text = ReadFile(o.scene);
  if (!text) return Report(text.error());
  return o.sweep.empty() ? CheckOnce(o, *text) : CheckSweep(o, *text);
}

const CommandRegistrar registrar(40, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "evaluate a scene's claims; with --sweep, search for counterexamples");
  cmd->add_option("scene", o->scene, "scene file (TOML, see docs/claims.md)")->required();
  cmd->add_option("--set", o->set, "override a top-level value: --set P=8 (repeatable)")->take_all();
  cmd->add_option("--sweep", o->sweep, "sweep a top-level value: --sweep P=1..16 or --sweep comm=0,2 (repeatable)")
      ->take_all();
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--threads", o->threads, "worker threads for --sweep (default: one per core)");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

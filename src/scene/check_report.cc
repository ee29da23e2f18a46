#include "ppsim/scene/check_report.h"

#include <cstdint>
#include <cstdio>

#include "claims_json.h"
#include "json_dump.h"
#include "ppsim/scene/scene.h"
#include "ppsim/scene/sweep.h"

namespace ppsim::scene {
namespace {

constexpr size_t kTextCounterexamples = 20;  // the text report lists this many; --json lists all

Result<CheckReport> CheckOnce(std::string_view text, const std::string& path, const std::vector<std::string>& set) {
  Result<Scene> scene = LoadSceneText(text, path, set);
  if (!scene) return scene.error();
  Result<std::vector<Run>> runs = SimulateScene(*scene, MeasureOptions{.series = false});
  if (!runs) return runs.error();
  Result<std::vector<ClaimResult>> claims = CheckSceneClaims(*scene, *runs);
  if (!claims) return claims.error();
  CheckReport r;
  r.ok = AllHold(*claims);
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < claims->size(); ++i) {
    const ClaimResult& c = (*claims)[i];
    nlohmann::json j = io::ClaimResultJson(c);
    j["line"] = scene->claims[i].pos.line;
    list.push_back(std::move(j));
    r.false_claims += !c.holds;
    r.text += std::string(c.holds ? "ok     " : "FALSE  ") + path + ":" + std::to_string(scene->claims[i].pos.line) +
              ": " + c.Explain() + "\n";
  }
  r.json = io::DumpJson({{"ok", r.ok}, {"claims", list}});
  r.text += r.ok ? "all " + std::to_string(claims->size()) + " claims hold\n"
                 : std::to_string(r.false_claims) + " of " + std::to_string(claims->size()) + " claims are false\n";
  return r;
}

std::string PointText(const Counterexample& c) {
  std::string s;
  for (const auto& [k, v] : c.params) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

// FNV-1a, 64 bits, as 16 hex digits: tells shards of different scene texts apart.
std::string TextHash(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

Result<CheckReport> CheckSweep(std::string_view text, const std::string& path, const std::vector<std::string>& set,
                               const std::vector<std::string>& sweep, int threads, const std::string& shard_spec,
                               bool with_json, const SweepControl& control) {
  std::vector<SweepAxis> axes;
  for (const std::string& spec : sweep) {
    Result<SweepAxis> a = ParseSweepAxis(spec);
    if (!a) return a.error();
    axes.push_back(std::move(*a));
  }
  SweepShard shard;
  if (!shard_spec.empty()) {
    Result<SweepShard> parsed = ParseSweepShard(shard_spec);
    if (!parsed) return parsed.error();
    shard = *parsed;
  }
  Result<SweepResult> s = Sweep(text, path, set, axes, threads, shard, control);
  if (!s) return s.error();
  CheckReport r;
  r.ok = s->counterexamples.empty();
  nlohmann::json list = nlohmann::json::array();
  for (const Counterexample& c : s->counterexamples) {
    if (!with_json) break;
    nlohmann::json item = io::ClaimResultJson(c.claim);  // {check, holds, values, first_ahead?}
    item.erase("holds");
    item["claim"] = std::move(item["check"]);
    item.erase("check");
    nlohmann::json& params = item["params"] = nlohmann::json::object();
    for (const auto& [k, v] : c.params) params[k] = v;
    if (!shard_spec.empty()) item["point"] = c.point;  // merge orders by it, then drops it
    list.push_back(std::move(item));
  }
  nlohmann::json j = {{"ok", r.ok}, {"tried", s->tried}, {"skipped", s->skipped}, {"counterexamples", std::move(list)}};
  if (s->skipped > 0) j["first_skipped"] = s->first_skip;
  r.text = "tried " + std::to_string(s->tried) + " points";
  if (!shard_spec.empty()) {
    // What `ppsim merge` needs to join the shards and to refuse shards of different sweeps.
    j["shard"] = {{"index", shard.index}, {"count", shard.count}, {"points", s->points},
                  {"scene", TextHash(text)}, {"set", set}, {"sweep", sweep}};
    if (s->skipped > 0) j["shard"]["first_skipped_point"] = s->first_skip_point;
    r.text += " (shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + " of " +
              std::to_string(s->points) + ")";
  }
  r.json = io::DumpJson(j);
  if (s->skipped > 0) r.text += ", skipped " + std::to_string(s->skipped) + " (first: " + s->first_skip + ")";
  r.text += "; " + std::to_string(s->counterexamples.size()) + " counterexample(s)" +
            (r.ok ? "\n" : ", smallest first:\n");
  for (size_t i = 0; i < s->counterexamples.size() && i < kTextCounterexamples; ++i)
    r.text += "  " + PointText(s->counterexamples[i]) + ": " + s->counterexamples[i].claim.Explain() + "\n";
  if (s->counterexamples.size() > kTextCounterexamples)
    r.text += "  ... and " + std::to_string(s->counterexamples.size() - kTextCounterexamples) +
              " more (the JSON report lists all)\n";
  return r;
}

}  // namespace

Result<CheckReport> CheckScene(std::string_view text, const std::string& path, const std::vector<std::string>& set,
                               const std::vector<std::string>& sweep, int threads, const std::string& shard,
                               bool with_json, const SweepControl& control) {
  if (sweep.empty() && !shard.empty())
    return Fail(ErrorCode::kUsage, "splits a sweep; give sweep axes too").Via("shard", shard);
  return sweep.empty() ? CheckOnce(text, path, set) : CheckSweep(text, path, set, sweep, threads, shard, with_json, control);
}

}  // namespace ppsim::scene

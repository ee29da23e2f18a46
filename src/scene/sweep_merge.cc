// Shards are checked against the first one given, then their counterexamples
// are put back in the unsplit sweep's order: each carries its grid index, and
// a grid point belongs to exactly one shard, so ordering by (sum of values,
// grid index) with a stable sort keeps each point's claims in scene order.
#include "ppsim/scene/sweep_merge.h"

#include <algorithm>
#include <cstdint>

#include "json_dump.h"
#include "ppsim/scene/sweep.h"

namespace ppsim::scene {
namespace {

using nlohmann::json;

Error Bad(const ShardFile& f, const std::string& what) { return Fail(ErrorCode::kInvalidValue, f.name + ": " + what); }

bool IsInt(const json& j, const char* key) { return j.contains(key) && j[key].is_number_integer(); }

bool IsStringList(const json& j) {
  return j.is_array() && std::all_of(j.begin(), j.end(), [](const json& x) { return x.is_string(); });
}

// A shard nests a handful of levels (a counterexample's claim values); its
// tree is compared and printed recursively, so deeper input is refused.
constexpr int kMaxShardDepth = 64;

struct TooDeep {};

// The JSON of a shard file, or kParse naming the file, the byte or the key
// at fault: a syntax error, a number beyond a double (1e400), nesting deeper
// than kMaxShardDepth.
Result<json> ParseShard(const ShardFile& f) {
  std::string key;  // the last key read, to name the field a bad number belongs to
  auto track = [&key](int depth, json::parse_event_t event, json& parsed) {
    if (depth > kMaxShardDepth) throw TooDeep{};
    if (event == json::parse_event_t::key) key = parsed.is_string() ? parsed.get<std::string>() : "";
    return true;
  };
  auto field = [&key] { return key.empty() ? std::string() : " \"" + key + "\""; };
  try {
    return json::parse(f.text, track);
  } catch (const TooDeep&) {
    return Fail(ErrorCode::kParse, f.name + ": nested deeper than " + std::to_string(kMaxShardDepth) +
                                       " levels" + (key.empty() ? "" : " (in" + field() + ")") + "; not a shard");
  } catch (const json::parse_error& e) {
    return Fail(ErrorCode::kParse, f.name + ": not JSON (at byte " + std::to_string(e.byte) + ")");
  } catch (const json::exception& e) {
    // out_of_range.406: "number overflow parsing '1e400'"; the rest of what() is nlohmann's tag.
    std::string what = e.what();
    if (const size_t tag = what.find("] "); tag != std::string::npos) what.erase(0, tag + 2);
    return Fail(ErrorCode::kParse, f.name + ":" + (key.empty() ? "" : " the value of" + field() + ":") + " " + what);
  }
}

// The shape `ppsim check --sweep --shard --json` prints, or an Error naming the field.
Error CheckShape(const ShardFile& f, const json& j) {
  if (!j.is_object() || !j.contains("shard"))
    return Bad(f, "not a shard: no \"shard\" (write it with ppsim check SCENE --sweep ... --shard I/N --json)");
  const json& s = j["shard"];
  if (!s.is_object()) return Bad(f, "shard must be an object");
  for (const char* key : {"index", "count", "points"})
    if (!IsInt(s, key)) return Bad(f, std::string("shard.") + key + " must be a whole number");
  if (!s.contains("scene") || !s["scene"].is_string()) return Bad(f, "shard.scene must be a string");
  for (const char* key : {"set", "sweep"})
    if (!s.contains(key) || !IsStringList(s[key])) return Bad(f, std::string("shard.") + key + " must be a list of strings");
  if (!j.contains("ok") || !j["ok"].is_boolean()) return Bad(f, "ok must be true or false");
  for (const char* key : {"tried", "skipped"})
    if (!IsInt(j, key) || j[key].get<std::int64_t>() < 0) return Bad(f, std::string(key) + " must be a whole number ≥ 0");
  if (!j.contains("counterexamples") || !j["counterexamples"].is_array())
    return Bad(f, "counterexamples must be a list");
  size_t at = 0;
  for (const json& c : j["counterexamples"]) {
    if (!c.is_object() || !IsInt(c, "point"))
      return Bad(f, "counterexamples[" + std::to_string(at) + "].point must be a whole number (its grid point)");
    ++at;
  }
  if (j["skipped"].get<std::int64_t>() > 0 &&
      (!IsInt(s, "first_skipped_point") || !j.contains("first_skipped") || !j["first_skipped"].is_string()))
    return Bad(f, "skipped > 0 needs first_skipped and shard.first_skipped_point");
  return {ErrorCode::kOk, ""};
}

}  // namespace

Result<MergedSweep> MergeSweepShards(const std::vector<ShardFile>& files) {
  if (files.empty()) return Fail(ErrorCode::kUsage, "merge: no shard given");
  std::vector<json> shards;
  for (const ShardFile& f : files) {
    Result<json> j = ParseShard(f);
    if (!j) return j.error();
    shards.push_back(std::move(*j));
    Error e = CheckShape(f, shards.back());
    if (e.code != ErrorCode::kOk) return e;
  }
  // Every shard must come from the same sweep as the first.
  const json& first = shards[0]["shard"];
  for (size_t i = 1; i < shards.size(); ++i)
    for (const char* key : {"scene", "set", "sweep", "count", "points"})
      if (shards[i]["shard"][key] != first[key])
        return Bad(files[i], std::string("shard.") + key + " " + shards[i]["shard"][key].dump() + " differs from " +
                                 files[0].name + "'s " + first[key].dump() + ": shards of different sweeps");
  std::vector<SweepAxis> axes;
  std::int64_t points = 1;
  for (const json& spec : first["sweep"]) {
    Result<SweepAxis> a = ParseSweepAxis(spec.get<std::string>());
    if (!a) return Bad(files[0], "shard.sweep: " + a.error().Text());
    axes.push_back(std::move(*a));
    // Checked axis by axis, as the sweep itself does: at most one axis of
    // kMaxSweepPoints values is held beyond the limit, and the product stays in int64.
    points *= static_cast<std::int64_t>(axes.back().values.size());
    if (points > kMaxSweepPoints)
      return Fail(ErrorCode::kTooLarge, files[0].name + ": shard.sweep has more than " +
                                            std::to_string(kMaxSweepPoints) + " points, the limit of a sweep");
  }
  const std::int64_t count = first["count"].get<std::int64_t>();
  if (points != first["points"].get<std::int64_t>())
    return Bad(files[0], "shard.points is " + first["points"].dump() + " but its sweep has " + std::to_string(points));
  if (count < 1 || static_cast<size_t>(count) != shards.size())
    return Fail(ErrorCode::kInvalidValue, "merge: the sweep has " + first["count"].dump() + " shards, " +
                                              std::to_string(shards.size()) + " given");
  std::vector<int> given(static_cast<size_t>(count), -1);  // shard index - 1 -> file
  for (size_t i = 0; i < shards.size(); ++i) {
    const json& s = shards[i]["shard"];
    const SweepShard shard{s["index"].get<std::int64_t>(), count};
    if (shard.index < 1 || shard.index > count) return Bad(files[i], "shard.index " + s["index"].dump() + " is not in 1.." + std::to_string(count));
    if (given[shard.index - 1] >= 0)
      return Bad(files[i], "shard " + s["index"].dump() + "/" + std::to_string(count) + " is also " + files[given[shard.index - 1]].name);
    given[shard.index - 1] = static_cast<int>(i);
    // Each ≤ the grid (≤ kMaxSweepPoints) before they are added: the sum cannot overflow.
    for (const char* key : {"tried", "skipped"})
      if (shards[i][key].get<std::int64_t>() > points)
        return Bad(files[i], std::string(key) + " is " + shards[i][key].dump() + " but the sweep has " +
                                 std::to_string(points) + " points");
    const std::int64_t ran = shards[i]["tried"].get<std::int64_t>() + shards[i]["skipped"].get<std::int64_t>();
    if (ran != ShardPoints(points, shard))
      return Bad(files[i], "tried + skipped is " + std::to_string(ran) + " but shard " + s["index"].dump() + "/" +
                               std::to_string(count) + " has " + std::to_string(ShardPoints(points, shard)) + " points");
    auto ours = [&](std::int64_t k) { return k >= 0 && k < points && k % count == shard.index - 1; };
    for (const json& c : shards[i]["counterexamples"])
      if (!ours(c["point"].get<std::int64_t>())) return Bad(files[i], "counterexample point " + c["point"].dump() + " is not this shard's");
    if (shards[i]["skipped"].get<std::int64_t>() > 0 && !ours(s["first_skipped_point"].get<std::int64_t>()))
      return Bad(files[i], "shard.first_skipped_point is not this shard's");
  }

  std::int64_t tried = 0, skipped = 0, first_skip = -1;
  std::string first_skip_text;
  std::vector<std::pair<std::int64_t, json>> found;  // (grid point, counterexample), shard by shard
  for (json& j : shards) {
    tried += j["tried"].get<std::int64_t>();
    const std::int64_t sk = j["skipped"].get<std::int64_t>();
    skipped += sk;
    if (sk > 0) {
      const std::int64_t k = j["shard"]["first_skipped_point"].get<std::int64_t>();
      if (first_skip < 0 || SweepPointBefore(axes, k, first_skip)) {
        first_skip = k;
        first_skip_text = j["first_skipped"].get<std::string>();
      }
    }
    for (json& c : j["counterexamples"]) {
      const std::int64_t k = c["point"].get<std::int64_t>();
      c.erase("point");
      found.emplace_back(k, std::move(c));
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [&](const auto& a, const auto& b) { return a.first != b.first && SweepPointBefore(axes, a.first, b.first); });
  json list = json::array();
  for (auto& [k, c] : found) list.push_back(std::move(c));
  const bool ok = list.empty();
  json merged = {{"ok", ok}, {"tried", tried}, {"skipped", skipped}, {"counterexamples", std::move(list)}};
  if (skipped > 0) merged["first_skipped"] = first_skip_text;
  return MergedSweep{ok, io::DumpJson(merged)};
}

}  // namespace ppsim::scene

#include "ppsim/timeline_json.h"

#include <string>

namespace ppsim {
namespace {

using nlohmann::json;

json PerStage(const std::vector<Tick>& values) {
  if (values.size() == 1) return values[0];
  return values;
}

json Series(const StepSeries& s) {
  json out = json::array();
  for (const auto& [tick, value] : s.steps) out.push_back({tick, value});
  return out;
}

std::string KindString(OpKind k) { return std::string(1, KindChar(k)); }

}  // namespace

json SimulationJson(const Timeline& t, const Metrics& m) {
  const Problem& p = t.problem;
  json costs = {{"F", PerStage(p.costs.f)}, {"B", PerStage(p.costs.b)}};
  if (t.schedule.split_backward) costs["W"] = PerStage(p.costs.w);
  if (!p.costs.fb.empty()) costs["FB"] = PerStage(p.costs.fb);
  json j = {
      {"schedule", t.schedule.name},
      {"P", p.P},
      {"M", p.M},
      {"v", p.v},
      {"stages", p.stages()},
      {"placement", PlacementName(p.placement)},
      {"split_backward", t.schedule.split_backward},
      {"costs", costs},
      {"comm", p.comm},
      {"hold", HoldModeName(p.hold)},
      {"makespan", m.makespan},
      {"busy", m.busy},
      {"idle", m.idle},
      {"bubble_ratio", m.bubble_ratio},
      {"bubble_fraction", m.bubble_fraction},
      {"bubble_rate_span", m.bubble_rate_span},
      {"transfers", m.transfers},
      {"max_span_idle", m.max_span_idle},
      {"max_device_idle", m.max_device_idle},
      {"peak_activations", m.peak_activations},
      {"peak_activations_per_device", m.peak_activations_per_device},
  };
  if (!p.comm_hops.empty()) j["comm_hops"] = p.comm_hops;
  json per_device = json::array();
  for (const StepSeries& s : m.activations.per_device) per_device.push_back(Series(s));
  j["activations"] = {{"cluster", Series(m.activations.cluster)}, {"per_device", per_device}};
  json ops = json::array();
  for (const PlacedOp& op : t.Ops()) {
    json o = {{"device", op.device}, {"stage", op.stage},         {"kind", KindString(op.kind)},
              {"microbatch", op.microbatch}, {"start", op.start}, {"end", op.end}};
    if (op.overlap >= 0) o["overlap"] = op.overlap;
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  return j;
}

namespace {

Error Bad(const std::string& source, const std::string& what) {
  return Fail(ErrorCode::kParse, source + ": " + what);
}

// Reads an integer field; `where` names it in errors ("ops[3].start").
bool Int(const json& obj, const char* key, std::int64_t& out, bool required, std::string& err,
         const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) err = where + ": missing field '" + key + "'";
    return !required;
  }
  if (!it->is_number_integer()) {
    err = where + "." + key + ": expected an integer, got " + it->dump();
    return false;
  }
  out = it->get<std::int64_t>();
  return true;
}

std::optional<std::vector<Tick>> CostList(const json& v) {
  if (v.is_number_integer()) return std::vector<Tick>{v.get<Tick>()};
  if (!v.is_array()) return std::nullopt;
  std::vector<Tick> out;
  for (const json& x : v) {
    if (!x.is_number_integer()) return std::nullopt;
    out.push_back(x.get<Tick>());
  }
  return out;
}

}  // namespace

Result<TimelineToCheck> ParseTimelineJson(std::string_view text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; turn it into line:col.
    size_t line = 1, col = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    std::string what = e.what();
    const size_t cut = what.find(": ", what.find("parse error"));
    return Bad(source + ":" + std::to_string(line) + ":" + std::to_string(col),
               "invalid JSON" + (cut == std::string::npos ? std::string() : what.substr(cut)));
  }
  TimelineToCheck out;
  const json* ops = &doc;
  std::string err;
  if (doc.is_object()) {
    auto it = doc.find("ops");
    if (it == doc.end()) return Bad(source, "no 'ops' field (expected the object `ppsim simulate --json` prints)");
    ops = &*it;
    std::int64_t v = 0;
    if (!Int(doc, "P", v, false, err, "top") ) return Bad(source, err);
    if (doc.contains("P")) out.P = static_cast<int>(v);
    if (doc.contains("M") && Int(doc, "M", v, true, err, "top")) out.M = static_cast<int>(v);
    if (doc.contains("stages") && Int(doc, "stages", v, true, err, "top")) out.S = static_cast<int>(v);
    if (doc.contains("comm") && Int(doc, "comm", v, true, err, "top")) out.comm = v;
    if (!err.empty()) return Bad(source, err);
    if (auto pl = doc.find("placement"); pl != doc.end() && pl->is_string()) {
      if (*pl == "loop") out.placement = Placement::kLoop;
      else if (*pl == "v-shape") out.placement = Placement::kVShape;
      else if (*pl == "dualpipe") out.placement = Placement::kDualPipe;
      else return Bad(source, "placement: expected \"loop\", \"v-shape\" or \"dualpipe\", got " + pl->dump());
    }
    if (auto c = doc.find("costs"); c != doc.end() && c->is_object()) {
      Costs costs;
      for (auto [key, target] : {std::pair<const char*, std::vector<Tick>*>{"F", &costs.f}, {"B", &costs.b},
                                 {"W", &costs.w}, {"FB", &costs.fb}}) {
        if (!c->contains(key)) continue;
        auto list = CostList((*c)[key]);
        if (!list) return Bad(source, std::string("costs.") + key + ": expected an integer or a list of integers");
        *target = *list;
      }
      out.costs = costs;
    }
  }
  if (!ops->is_array()) return Bad(source, "'ops' must be an array of {device, stage, kind, microbatch, start, end}");
  out.ops.reserve(ops->size());
  for (size_t i = 0; i < ops->size(); ++i) {
    const json& o = (*ops)[i];
    const std::string where = "ops[" + std::to_string(i) + "]";
    if (!o.is_object()) return Bad(source, where + ": expected an object");
    PlacedOp op;
    std::int64_t device = 0, stage = 0, mb = 0, overlap = -1;
    if (!Int(o, "device", device, true, err, where) || !Int(o, "stage", stage, true, err, where) ||
        !Int(o, "microbatch", mb, true, err, where) || !Int(o, "start", op.start, true, err, where) ||
        !Int(o, "end", op.end, true, err, where) || !Int(o, "overlap", overlap, false, err, where))
      return Bad(source, err);
    auto kind = o.find("kind");
    if (kind == o.end() || !kind->is_string() || kind->get<std::string>().size() != 1 ||
        !KindFromChar(kind->get<std::string>()[0]))
      return Bad(source, where + ".kind: expected \"F\", \"B\" or \"W\"");
    op.kind = *KindFromChar(kind->get<std::string>()[0]);
    if (device < 0 || stage < 0 || mb < 0 || device > kMaxDevices || stage > kMaxDevices * kMaxChunks ||
        mb > kMaxMicrobatches)
      return Bad(source, where + ": device/stage/microbatch out of range");
    op.device = static_cast<int>(device);
    op.stage = static_cast<int>(stage);
    op.microbatch = static_cast<int>(mb);
    op.overlap = static_cast<int>(overlap);
    out.ops.push_back(op);
  }
  return out;
}

}  // namespace ppsim

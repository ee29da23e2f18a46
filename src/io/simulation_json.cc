// Keys are written in nlohmann's order (sorted, as its std::map holds them):
// the fields are listed with their writers, sorted, then written.
#include "ppsim/io/simulation_json.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <string_view>
#include <utility>
#include <variant>

#include "ppsim/critical_path.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/metric_table.h"
#include "ppsim/microbatch_lengths.h"
#include "ppsim/rational.h"
#include "ppsim/recompute.h"
#include "ppsim/slices.h"

namespace ppsim::io {
namespace {

using Field = std::pair<std::string_view, std::function<void(JsonOut&)>>;

void WriteObject(JsonOut& out, std::vector<Field> fields) {
  std::sort(fields.begin(), fields.end(), [](const Field& a, const Field& b) { return a.first < b.first; });
  out.Char('{');
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.Char(',');
    out.Key(fields[i].first);
    fields[i].second(out);
  }
  out.Char('}');
}

void PerStage(JsonOut& out, const std::vector<Tick>& v) {
  if (v.size() == 1)
    out.Int(v[0]);
  else
    out.Ints(v);
}

void Series(JsonOut& out, const StepSeries& s) {
  out.Char('[');
  for (size_t i = 0; i < s.steps.size(); ++i) {
    if (i > 0) out.Char(',');
    out.Char('[').Int(s.steps[i].first).Char(',').Int(s.steps[i].second).Char(']');
  }
  out.Char(']');
}

// One op: {"device":..,"end":..,["full":true,]"kind":"F","microbatch":..,["overlap":..,]["slice":..,]"stage":..,
// "start":..}; `slices` > 1: op.microbatch is a slice unit (slices.h).
void Op(JsonOut& out, int device, const ppsim::Op& op, Tick start, Tick end, int overlap, bool full, int slices) {
  char* p = out.Reserve(256);
  auto put = [&p](std::string_view s) { p = std::copy(s.begin(), s.end(), p); };
  auto num = [&p](std::int64_t v) { p = std::to_chars(p, p + 24, v).ptr; };
  put("{\"device\":");
  num(device);
  put(",\"end\":");
  num(end);
  if (full) put(",\"full\":true");  // a full backward (schedule.h)
  put(",\"kind\":\"");
  *p++ = KindChar(op.kind);
  put("\",\"microbatch\":");
  num(slices > 1 ? op.microbatch / slices : op.microbatch);
  if (overlap >= 0) {
    put(",\"overlap\":");
    num(overlap);
  }
  if (slices > 1) {
    put(",\"slice\":");
    num(op.microbatch % slices);
  }
  put(",\"stage\":");
  num(op.stage);
  put(",\"start\":");
  num(start);
  *p++ = '}';
  out.Commit(p);
}

void Ops(JsonOut& out, const Timeline& t) {
  const OpSpace& space = t.schedule.space;
  out.Char('[');
  bool first = true;
  int next_overlap = 0;
  for (int d = 0; d < static_cast<int>(t.schedule.devices.size()); ++d) {
    for (const Slot& slot : t.schedule.devices[d]) {
      const int overlap = slot.pair() ? next_overlap++ : -1;
      for (OpId id : {slot.op, OpId{slot.overlapped}}) {
        if (id == kNoOp) continue;
        if (!first) out.Char(',');
        first = false;
        const ppsim::Op op = space.At(id);
        Op(out, d, op, t.Start(id), t.end[id], overlap, slot.full && op.kind == OpKind::kB, t.problem.slices);
      }
    }
  }
  out.Char(']');
}

// A metric's value as JSON writes it (MetricJsonValue).
void Number(JsonOut& out, const JsonNumber& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v))
    out.Int(*i);
  else if (const auto* d = std::get_if<double>(&v))
    out.Double(*d);
  else
    out.Raw("null");
}

// Every metric of the table (metric_table.h) under its JSON keys: a row added
// there is a field here.
void MetricFields(std::vector<Field>& fields, const Metrics& m, const Problem& p) {
  for (const MetricInfo& metric : MetricTable()) {
    if (!MetricApplies(metric, m)) continue;
    if (metric.json_key != nullptr)
      fields.push_back({metric.json_key, [&](JsonOut& o) { Number(o, MetricJsonValue(metric, m, p, -1)); }});
    if (metric.json_per_device_key != nullptr)
      fields.push_back({metric.json_per_device_key, [&](JsonOut& o) {
                          o.Char('[');
                          for (int d = 0; d < p.P; ++d) {
                            if (d > 0) o.Char(',');
                            Number(o, MetricJsonValue(metric, m, p, d));
                          }
                          o.Char(']');
                        }});
  }
}

void CriticalPathList(JsonOut& out, const Timeline& t) {
  const std::vector<int> path = CriticalPathIndices(t);
  out.Char('[');
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out.Char(',');
    out.Int(path[i]);
  }
  out.Char(']');
}

// The communication model's parameters (docs/formats.md, "comms"): each
// time in the user's units and in ticks (units × ticks_per_unit, as
// ScaleCosts made them), the bytes and each boundary's transfer time in ticks.
void CommsBlock(JsonOut& out, const Problem& p) {
  const CommModel& c = p.comms;
  const std::int64_t k = std::max<std::int64_t>(1, c.time_scale);
  auto both = [k](Tick ticks) {
    return [ticks, k](JsonOut& o) { o.Raw("{\"ticks\":").Int(ticks).Raw(",\"units\":").Int(ticks / k).Char('}'); };
  };
  std::vector<std::int64_t> bytes, ticks;
  for (int b = 0; b + 1 < p.stages(); ++b) {
    bytes.push_back(c.BytesAt(b));
    ticks.push_back(c.latency + c.SizeTicks(c.BytesAt(b)));
  }
  std::vector<Field> fields = {
      {"rule", [&](JsonOut& o) { o.String(CommOrderName(c.order)); }},
      {"posting",  // megatron's and dualpipe's calls block (comm_lowering.h); megatron-overlap's steady state
                   // posts async, its warm-up and cool-down block; every other rule and PyTorch's CSV post async
       [&](JsonOut& o) {
         o.String(CommOrderBlocks(c.order)                     ? "blocking"
                  : c.order == CommOrder::kMegatronOverlap ? "mixed"
                                                           : "async");
       }},
      {"latency", both(c.latency)},
      {"bandwidth_bytes_per_unit",
       [&](JsonOut& o) {
         if (c.bandwidth > 0)
           o.Int(c.bandwidth);
         else
           o.Raw("null");
       }},
      {"concurrency", [&](JsonOut& o) { o.Int(c.concurrency); }},
      {"ticks_per_unit", [k](JsonOut& o) { o.Int(k); }},
      {"transfer_bytes", [&](JsonOut& o) { o.Ints(bytes); }},
      {"transfer_ticks", [&](JsonOut& o) { o.Ints(ticks); }},
      {"unshard", both(c.unshard)},
      {"reduce_grad", both(c.reduce_grad)},
      {"send_release",
       [&](JsonOut& o) { o.String(c.send_release == SendRelease::kCompletion ? "completion" : "step_end"); }},
  };
  WriteObject(out, std::move(fields));
}

}  // namespace

bool WriteSimulationJson(JsonOut& out, const Timeline& t, const Metrics& m, bool critical_path) {
  const Problem& p = t.problem;
  std::vector<Field> fields = {
      {"schedule", [&](JsonOut& o) { o.String(t.schedule.name); }},
      {"P", [&](JsonOut& o) { o.Int(p.P); }},
      {"M", [&](JsonOut& o) { o.Int(p.M); }},
      {"v", [&](JsonOut& o) { o.Int(p.v); }},
      {"stages", [&](JsonOut& o) { o.Int(p.stages()); }},
      {"placement", [&](JsonOut& o) { o.String(PlacementName(p.placement)); }},
      {"split_backward", [&](JsonOut& o) { o.Bool(t.schedule.split_backward); }},
      {"costs",
       [&](JsonOut& o) {
         std::vector<Field> costs = {{"F", [&](JsonOut& c) { PerStage(c, p.costs.f); }},
                                     {"B", [&](JsonOut& c) { PerStage(c, p.costs.b); }}};
         if (t.schedule.split_backward) costs.push_back({"W", [&](JsonOut& c) { PerStage(c, p.costs.w); }});
         if (!p.costs.fb.empty()) costs.push_back({"FB", [&](JsonOut& c) { PerStage(c, p.costs.fb); }});
         if (!p.costs.bw.empty()) costs.push_back({"BW", [&](JsonOut& c) { PerStage(c, p.costs.bw); }});
         if (Recomputes(p)) {  // R's ticks per stage (recompute.h)
           std::vector<Tick> r;
           for (int s = 0; s < p.stages(); ++s) r.push_back(p.costs.Of(OpKind::kR, s));
           costs.push_back({"R", [r](JsonOut& c) { PerStage(c, r); }});
         }
         WriteObject(o, std::move(costs));
       }},
      {"cost_basis", [&](JsonOut& o) { o.String(CostBasisName(p.cost_basis)); }},  // costs are ticks per op
      {"ticks_per_unit", [&](JsonOut& o) { o.Int(p.ticks_per_unit == 0 ? 1 : p.ticks_per_unit); }},
      {"comm", [&](JsonOut& o) { o.Int(p.comm); }},
      {"hold", [&](JsonOut& o) { o.String(HoldModeName(p.hold)); }},
      {"activations",
       [&](JsonOut& o) {
         o.Raw("{\"cluster\":");
         Series(o, m.activations.cluster);
         o.Raw(",\"per_device\":[");
         for (size_t d = 0; d < m.activations.per_device.size(); ++d) {
           if (d > 0) o.Char(',');
           Series(o, m.activations.per_device[d]);
         }
         o.Raw("]}");
       }},
      {"ops", [&](JsonOut& o) { Ops(o, t); }},
  };
  MetricFields(fields, m, p);
  if (p.placement == Placement::kMap)
    fields.push_back({"stage_to_device", [&](JsonOut& o) {
                        o.Ints(std::vector<std::int64_t>(p.stage_device.begin(), p.stage_device.end()));
                      }});
  if (p.comms.enabled()) fields.push_back({"comms", [&](JsonOut& o) { CommsBlock(o, p); }});
  if (!p.comm_hops.empty()) fields.push_back({"comm_hops", [&](JsonOut& o) { o.Ints(p.comm_hops); }});
  if (PerMicrobatch(p)) {  // the weights every op's duration is scaled by; drawn lengths as drawn
    fields.push_back({"microbatch_costs", [&](JsonOut& o) { o.Ints(MicrobatchWeights(p)); }});
    if (p.lengths != LengthSource::kNone)
      fields.push_back({"microbatch_lengths", [&](JsonOut& o) { o.Ints(MicrobatchLengths(p)); }});
  }
  if (p.slices > 1) {  // sequence slices (slices.h): each op carries its slice
    fields.push_back({"slices", [&](JsonOut& o) { o.Int(p.slices); }});
    fields.push_back({"slice_weights", [&](JsonOut& o) { o.Ints(SliceWeights(p)); }});
  }
  if (Recomputes(p)) {  // recompute as an op (recompute.h)
    fields.push_back({"recompute", [&](JsonOut& o) { o.String(RecomputeName(p.recompute)); }});
    fields.push_back({"recompute_at", [&](JsonOut& o) { o.String(RecomputeAtName(p.recompute_at)); }});
    const Rational inputs = Rational::Of(p.recompute_inputs_num, p.recompute_inputs_den).value_or(Rational());
    fields.push_back({"recompute_inputs", [inputs](JsonOut& o) {
                        o.String(std::to_string(inputs.num()) +
                                 (inputs.den() == 1 ? "" : "/" + std::to_string(inputs.den())));  // "1/8", "0"
                      }});
  }
  if (critical_path) fields.push_back({"critical_path", [&](JsonOut& o) { CriticalPathList(o, t); }});
  MemoryBytes bytes;
  if (p.memory.enabled()) {
    bytes = MeasureMemoryBytes(t);
    fields.push_back({"static_bytes_per_device", [&](JsonOut& o) { o.Ints(bytes.static_per_device); }});
    fields.push_back({"peak_bytes_per_device", [&](JsonOut& o) { o.Ints(bytes.peak_per_device); }});
    fields.push_back({"memory_limit", [&](JsonOut& o) {
                        if (p.memory.limit > 0)
                          o.Int(p.memory.limit);
                        else
                          o.Raw("null");
                      }});
    fields.push_back({"memory_limit_exceeded", [&](JsonOut& o) { o.Bool(bytes.exceeded); }});
    fields.push_back({"memory_limit_first_exceeded", [&](JsonOut& o) {
                        if (!bytes.exceeded) {
                          o.Raw("null");
                          return;
                        }
                        o.Raw("{\"bytes\":").Int(bytes.bytes_at_first).Raw(",\"device\":").Int(bytes.first_device);
                        o.Raw(",\"tick\":").Int(bytes.first_tick).Char('}');
                      }});
  }
  WriteObject(out, std::move(fields));
  out.Char('\n');
  return out.ok();
}

void WriteCommsJson(JsonOut& out, const Problem& problem) { CommsBlock(out, problem); }

}  // namespace ppsim::io

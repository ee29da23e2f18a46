// Streamed: every event is written as it is produced (JsonOut), so a trace
// of millions of ops needs no more memory than the timeline and the
// activation series. Microsecond times are exact products tick × tick_us,
// computed in 128 bits: a large tick_us with large costs cannot overflow.
#include "ppsim/io/chrome_trace.h"

#include <string>

#include "ppsim/memory.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/placement.h"
#include "ppsim/slices.h"

namespace ppsim::io {
namespace {

using i128 = __int128;

// Traces escape every control character but \n, \r, \t as \uXXXX.
void Str(JsonOut& w, std::string_view s) { w.String(s, /*short_escapes=*/false); }

// Half-microsecond precision is exact: ts = (a + b) * tick_us / 2.
void HalfUs(JsonOut& w, i128 twice) {
  w.Int128(twice / 2);
  if (twice % 2) w.Raw(".5");
}

class Events {
 public:
  explicit Events(JsonOut& w) : w_(w) {}
  // Opens the next event and writes its common fields.
  JsonOut& Begin(const char* ph, std::string_view name, int pid) {
    w_.Raw(first_ ? "\n{" : ",\n{");
    first_ = false;
    w_.Raw("\"ph\":\"").Raw(ph).Raw("\",\"name\":");
    Str(w_, name);
    return w_.Raw(",\"pid\":").Int(pid).Raw(",\"tid\":0");
  }
  void End() { w_.Char('}'); }

 private:
  JsonOut& w_;
  bool first_ = true;
};

// One counter event per step of `series`, from ts 0. `fixed` is an args
// prefix that stays the same (a stacked series below the varying one).
void Counter(Events& ev, JsonOut& w, const char* name, const std::string& fixed, const char* key, int pid,
             const StepSeries& series, std::int64_t tick_us) {
  auto event = [&](Tick tick, std::int64_t value) {
    ev.Begin("C", name, pid).Raw(",\"ts\":").Int128(i128{tick} * tick_us).Raw(",\"args\":{").Raw(fixed);
    w.Char('"').Raw(key).Raw("\":").Int(value).Char('}');
    ev.End();
  };
  if (series.steps.empty() || series.steps.front().first > 0) event(0, 0);
  for (const auto& [tick, value] : series.steps) event(tick, value);
}

void OpSlices(Events& ev, JsonOut& w, const Timeline& t, std::int64_t us) {
  const Schedule& sched = t.schedule;
  const OpSpace& space = sched.space;
  const int K = t.problem.slices;  // sequence slices: "F3.1@s0", microbatch 3 slice 1
  std::string name, cat;
  for (int d = 0; d < static_cast<int>(sched.devices.size()); ++d) {
    for (const Slot& slot : sched.devices[d]) {
      const Op a = space.At(slot.op);
      name = SliceOpName(space, K, slot.op);
      cat.assign(1, KindChar(a.kind));
      if (slot.pair()) {
        const Op b = space.At(slot.overlapped);
        name += '+';
        name += SliceOpName(space, K, slot.overlapped);
        cat += '+';
        cat += KindChar(b.kind);
      }
      const Tick start = t.Start(slot.op), end = t.end[slot.op];
      ev.Begin("X", name, d).Raw(",\"cat\":");
      Str(w, cat);
      w.Raw(",\"ts\":").Int128(i128{start} * us).Raw(",\"dur\":").Int128(i128{end - start} * us).Raw(",\"args\":{");
      if (slot.pair()) {
        w.Raw("\"ops\":[");
        Str(w, SliceOpName(space, K, slot.op));
        w.Char(',');
        Str(w, SliceOpName(space, K, slot.overlapped));
        w.Char(']');
      } else {
        w.Raw("\"microbatch\":").Int(a.microbatch / K);
        if (K > 1) w.Raw(",\"slice\":").Int(a.microbatch % K);
        w.Raw(",\"stage\":").Int(a.stage);
      }
      w.Raw(",\"start_tick\":").Int(start).Raw(",\"end_tick\":").Int(end).Char('}');
      ev.End();
    }
  }
}

// Flow arrows for dependencies that cross devices.
void Flows(Events& ev, JsonOut& w, const Timeline& t, std::int64_t us) {
  const Schedule& sched = t.schedule;
  const OpSpace& space = sched.space;
  std::int64_t flow_id = 0;
  std::string name;
  for (int d = 0; d < static_cast<int>(sched.devices.size()); ++d) {
    for (const Slot& slot : sched.devices[d]) {
      for (OpId id : {slot.op, OpId{slot.overlapped}}) {
        if (id == kNoOp) continue;
        const OpId dep = DependencyOf(space, sched.split_backward, id);
        if (dep == kNoOp) continue;
        const int from = t.problem.DeviceOf(space.At(dep).stage);
        if (from == d) continue;
        name = SliceOpName(space, t.problem.slices, dep) + " -> " + SliceOpName(space, t.problem.slices, id);
        ++flow_id;
        ev.Begin("s", name, from).Raw(",\"cat\":\"dependency\",\"id\":").Int(flow_id).Raw(",\"ts\":");
        HalfUs(w, (i128{t.Start(dep)} + t.end[dep]) * us);
        ev.End();
        ev.Begin("f", name, d).Raw(",\"cat\":\"dependency\",\"id\":").Int(flow_id).Raw(",\"bp\":\"e\",\"ts\":");
        HalfUs(w, (i128{t.Start(id)} + t.end[id]) * us);
        ev.End();
      }
    }
  }
}

}  // namespace

bool WriteChromeTrace(JsonOut& w, const Timeline& t, const ChromeTraceOptions& options) {
  const Problem& p = t.problem;
  const std::int64_t us = options.tick_us;
  Events ev(w);
  w.Raw("{\"traceEvents\":[");
  for (int d = 0; d < p.P; ++d) {
    ev.Begin("M", "process_name", d).Raw(",\"args\":{\"name\":\"device ").Int(d).Raw("\"}");
    ev.End();
    ev.Begin("M", "process_sort_index", d).Raw(",\"args\":{\"sort_index\":").Int(d).Char('}');
    ev.End();
    ev.Begin("M", "thread_name", d).Raw(",\"args\":{\"name\":\"compute\"}");
    ev.End();
  }
  OpSlices(ev, w, t, us);
  Flows(ev, w, t, us);
  // Counter tracks.
  const Activations act = MeasureActivations(t, p.hold);
  for (int d = 0; d < p.P; ++d) Counter(ev, w, "activations", "", "held", d, act.per_device[d], us);
  if (p.memory.enabled()) {
    const MemoryBytes bytes = MeasureMemoryBytes(t);
    for (int d = 0; d < p.P; ++d)
      Counter(ev, w, "memory bytes", "\"static\":" + std::to_string(bytes.static_per_device[d]) + ",", "activations",
              d, bytes.activations_per_device[d], us);
  }
  w.Raw("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"ppsim\",\"schedule\":");
  Str(w, t.schedule.name);
  w.Raw(",\"tick_us\":").Int(us).Raw(",\"makespan_ticks\":").Int(t.makespan).Raw("}}\n");
  return w.ok();
}

std::string ChromeTraceJson(const Timeline& t, const ChromeTraceOptions& options) {
  std::string out;
  JsonOut w(AppendTo(out));
  WriteChromeTrace(w, t, options);
  w.Finish();
  return out;
}

}  // namespace ppsim::io

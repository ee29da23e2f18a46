// Streamed: every event is written as it is produced (JsonOut), so a trace
// of millions of ops needs no more memory than the timeline and the
// activation series. Microsecond times are exact products tick × tick_us,
// computed in 128 bits: a large tick_us with large costs cannot overflow.
#include "ppsim/io/chrome_trace.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/comm_run.h"
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
  JsonOut& Begin(const char* ph, std::string_view name, int pid, int tid = 0) {
    w_.Raw(first_ ? "\n{" : ",\n{");
    first_ = false;
    w_.Raw("\"ph\":\"").Raw(ph).Raw("\",\"name\":");
    Str(w_, name);
    return w_.Raw(",\"pid\":").Int(pid).Raw(",\"tid\":").Int(tid);
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

// With comms modelled (Timeline::comms): a process "links" after the
// devices (pid P), one thread per directed link, "link d0 -> d1", carrying
// its transfers as complete events from their start to their completion.
// A transfer that overlaps one still on its link's thread (more than one in
// flight) goes on the link's next thread, "link d0 -> d1 #2", so that the
// slices of a thread never overlap.
void LinkTracks(Events& ev, JsonOut& w, const Timeline& t, std::int64_t us) {
  if (t.comms == nullptr || t.comms->transfers.empty()) return;
  const std::vector<Transfer>& xs = t.comms->transfers;
  std::vector<std::size_t> order(xs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(xs[a].src, xs[a].dst, xs[a].start, xs[a].end) < std::tie(xs[b].src, xs[b].dst, xs[b].start, xs[b].end);
  });
  std::map<std::pair<int, int>, std::vector<Tick>> lanes;  // per link, each thread's last end
  std::vector<std::pair<std::pair<int, int>, std::size_t>> where(xs.size());  // transfer -> (link, thread)
  for (std::size_t i : order) {
    std::vector<Tick>& ends = lanes[{xs[i].src, xs[i].dst}];
    std::size_t k = 0;
    while (k < ends.size() && ends[k] > xs[i].start) ++k;
    if (k == ends.size()) ends.push_back(0);
    ends[k] = xs[i].end;
    where[i] = {{xs[i].src, xs[i].dst}, k};
  }
  const int pid = t.problem.P;
  ev.Begin("M", "process_name", pid).Raw(",\"args\":{\"name\":\"links\"}");
  ev.End();
  ev.Begin("M", "process_sort_index", pid).Raw(",\"args\":{\"sort_index\":").Int(pid).Char('}');
  ev.End();
  std::map<std::pair<std::pair<int, int>, std::size_t>, int> tid;  // (link, thread) -> tid, in link order
  for (const auto& [link, ends] : lanes) {
    for (std::size_t k = 0; k < ends.size(); ++k) {
      const int id = static_cast<int>(tid.size());
      tid[{link, k}] = id;
      std::string name = "link d" + std::to_string(link.first) + " -> d" + std::to_string(link.second);
      if (k > 0) name += " #" + std::to_string(k + 1);
      ev.Begin("M", "thread_name", pid, id).Raw(",\"args\":{\"name\":");
      Str(w, name);
      w.Char('}');
      ev.End();
      ev.Begin("M", "thread_sort_index", pid, id).Raw(",\"args\":{\"sort_index\":").Int(id).Char('}');
      ev.End();
    }
  }
  for (std::size_t i : order) {
    const Transfer& x = xs[i];
    // "F3 s0->s1": microbatch 3's activations from stage 0 to 1; "B3 s1->s0" its gradient back.
    const int from = x.backward ? x.boundary + 1 : x.boundary, to = x.backward ? x.boundary : x.boundary + 1;
    const std::string name = std::string(x.backward ? "B" : "F") + std::to_string(x.microbatch) + " s" +
                             std::to_string(from) + "->s" + std::to_string(to);
    ev.Begin("X", name, pid, tid.at(where[i])).Raw(",\"cat\":\"transfer\",\"ts\":").Int128(i128{x.start} * us);
    w.Raw(",\"dur\":").Int128(i128{x.end - x.start} * us).Raw(",\"args\":{\"direction\":");
    Str(w, x.backward ? "backward" : "forward");
    w.Raw(",\"microbatch\":").Int(x.microbatch).Raw(",\"boundary\":").Int(x.boundary);
    w.Raw(",\"src_device\":").Int(x.src).Raw(",\"dst_device\":").Int(x.dst).Raw(",\"bytes\":").Int(x.bytes);
    w.Raw(",\"send_post_tick\":").Int(x.send_post).Raw(",\"recv_post_tick\":").Int(x.recv_post);
    w.Raw(",\"start_tick\":").Int(x.start).Raw(",\"end_tick\":").Int(x.end).Char('}');
    ev.End();
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
  LinkTracks(ev, w, t, us);
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

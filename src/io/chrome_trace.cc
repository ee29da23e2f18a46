#include "ppsim/chrome_trace.h"

#include <cstdio>
#include <string>

#include "ppsim/memory.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// Half-microsecond precision is exact: ts = (a + b) * tick_us / 2.
std::string HalfUs(std::int64_t twice) {
  std::string s = std::to_string(twice / 2);
  if (twice % 2) s += ".5";
  return s;
}

class Writer {
 public:
  void Event(const std::string& body) {
    out_ += first_ ? "\n" : ",\n";
    out_ += "{" + body + "}";
    first_ = false;
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
  bool first_ = true;
};

std::string Common(const char* ph, const std::string& name, int pid) {
  return "\"ph\":\"" + std::string(ph) + "\",\"name\":" + JsonString(name) + ",\"pid\":" + std::to_string(pid) +
         ",\"tid\":0";
}

// One counter event per step of `series`, from ts 0. `fixed` is an args
// prefix that stays the same (a stacked series below the varying one).
void Counter(Writer& w, const char* name, const std::string& fixed, const char* key, int pid,
             const StepSeries& series, std::int64_t tick_us) {
  auto event = [&](Tick tick, std::int64_t value) {
    w.Event(Common("C", name, pid) + ",\"ts\":" + std::to_string(tick * tick_us) + ",\"args\":{" + fixed + "\"" +
            key + "\":" + std::to_string(value) + "}");
  };
  if (series.steps.empty() || series.steps.front().first > 0) event(0, 0);
  for (const auto& [tick, value] : series.steps) event(tick, value);
}

}  // namespace

std::string ChromeTraceJson(const Timeline& t, const ChromeTraceOptions& options) {
  const Problem& p = t.problem;
  const Schedule& sched = t.schedule;
  const OpSpace& space = sched.space;
  const std::int64_t us = options.tick_us;
  Writer w;
  w.out() = "{\"traceEvents\":[";
  for (int d = 0; d < p.P; ++d) {
    w.Event(Common("M", "process_name", d) + ",\"args\":{\"name\":\"device " + std::to_string(d) + "\"}");
    w.Event(Common("M", "process_sort_index", d) + ",\"args\":{\"sort_index\":" + std::to_string(d) + "}");
    w.Event(Common("M", "thread_name", d) + ",\"args\":{\"name\":\"compute\"}");
  }
  // Ops, one slice per slot.
  for (int d = 0; d < static_cast<int>(sched.devices.size()); ++d) {
    for (const Slot& slot : sched.devices[d]) {
      const Op a = space.At(slot.op);
      std::string name = OpName(a), cat(1, KindChar(a.kind));
      std::string args = "\"microbatch\":" + std::to_string(a.microbatch) + ",\"stage\":" + std::to_string(a.stage);
      if (slot.pair()) {
        const Op b = space.At(slot.overlapped);
        name += '+';
        name += OpName(b);
        cat += std::string("+") + KindChar(b.kind);
        args = "\"ops\":[" + JsonString(OpName(a)) + "," + JsonString(OpName(b)) + "]";
      }
      const Tick start = t.start[slot.op], end = t.end[slot.op];
      w.Event(Common("X", name, d) + ",\"cat\":" + JsonString(cat) + ",\"ts\":" + std::to_string(start * us) +
              ",\"dur\":" + std::to_string((end - start) * us) + ",\"args\":{" + args +
              ",\"start_tick\":" + std::to_string(start) + ",\"end_tick\":" + std::to_string(end) + "}");
    }
  }
  // Flow arrows for dependencies that cross devices.
  std::int64_t flow_id = 0;
  for (int d = 0; d < static_cast<int>(sched.devices.size()); ++d) {
    for (const Slot& slot : sched.devices[d]) {
      for (OpId id : {slot.op, slot.overlapped}) {
        if (id == kNoOp) continue;
        const OpId dep = DependencyOf(space, sched.split_backward, id);
        if (dep == kNoOp) continue;
        const int from = p.DeviceOf(space.At(dep).stage);
        if (from == d) continue;
        const std::string name = OpName(space.At(dep)) + " -> " + OpName(space.At(id));
        const std::string tail = ",\"cat\":\"dependency\",\"id\":" + std::to_string(++flow_id);
        w.Event(Common("s", name, from) + tail + ",\"ts\":" + HalfUs((t.start[dep] + t.end[dep]) * us));
        w.Event(Common("f", name, d) + tail + ",\"bp\":\"e\",\"ts\":" + HalfUs((t.start[id] + t.end[id]) * us));
      }
    }
  }
  // Counter tracks.
  const Activations act = MeasureActivations(t, p.hold);
  for (int d = 0; d < p.P; ++d) Counter(w, "activations", "", "held", d, act.per_device[d], us);
  if (p.memory.enabled()) {
    const MemoryBytes bytes = MeasureMemoryBytes(t);
    for (int d = 0; d < p.P; ++d)
      Counter(w, "memory bytes", "\"static\":" + std::to_string(bytes.static_per_device[d]) + ",", "activations", d,
              bytes.activations_per_device[d], us);
  }
  std::string& out = w.out();
  out += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"ppsim\",\"schedule\":" +
         JsonString(sched.name) + ",\"tick_us\":" + std::to_string(us) + ",\"makespan_ticks\":" +
         std::to_string(t.makespan) + "}}\n";
  return out;
}

}  // namespace ppsim

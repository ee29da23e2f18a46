// A small generator of pipeline-parallel profiler traces for the tests of
// `ppsim explain`: a registry schedule placed by ppsim with noisy per-op
// durations (Problem::op_durations) and a latency per hop, written one
// Kineto Chrome-trace JSON per rank the way PyTorch's profiler does
// (docs/explain.md): PP: CPU ranges in each rank's order, their launches
// and kernels linked by correlation, optionally gpu_user_annotation events,
// each rank's clock off by its skew, in the current layout (ts relative to
// baseTimeNanoseconds, 3 decimals) or the legacy one (absolute integer
// epoch µs, every time a whole µs). The truth comes back with the files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim::testing {

struct TraceSpec {
  std::string schedule = "1f1b";
  int P = 4, M = 8, v = 1;
  std::vector<Tick> f, b, w;   // ns per virtual stage (a full backward costs b + w)
  std::vector<Tick> fb;        // an overlapped pair, per stage of its forward (empty: f + its backward)
  Tick latency = 50'000;       // ns, every hop
  double sigma = 0.02;         // lognormal noise of each op's duration
  unsigned seed = 1;
  bool legacy = false;         // absolute integer µs, no baseTimeNanoseconds
  bool annotations = true;     // gpu_user_annotation events (else only kernels)
  int straggler = -1;          // a rank whose ops all take `factor` times longer
  double factor = 1.0;
  int fill_drain = -1;         // a rank that runs all its F, then all its B last microbatch first (a custom order)
};

struct TraceTruth {
  std::vector<std::vector<std::string>> orders;  // PyTorch strings
  Tick makespan = 0;                             // ns, true clock
  std::vector<Tick> skew;                        // ns, rank clock minus true clock
  std::vector<std::string> files;
};

inline std::string PyTorchAction(const Op& op, bool split, bool full) {
  const char kind = op.kind == OpKind::kF ? 'F' : op.kind == OpKind::kW ? 'W' : (split && !full ? 'I' : 'B');
  return std::to_string(op.stage) + kind + std::to_string(op.microbatch);
}

// A slot's action: one op, or an overlapped pair as _Action.__repr__ prints
// it, "(<F action>;<B action>)OVERLAP_F_B".
inline std::string PyTorchAction(const OpSpace& space, const Slot& slot, bool split) {
  const Op op = space.At(slot.op);
  if (!slot.pair()) return PyTorchAction(op, split, slot.full);
  const Op other = space.At(slot.overlapped);
  return "(" + PyTorchAction(op, split, slot.full) + ";" + PyTorchAction(other, split, slot.full) + ")OVERLAP_F_B";
}

// Writes rank<r>.json into `dir`; returns the truth. Empty files on failure.
inline TraceTruth WriteTraces(const TraceSpec& spec, const std::string& dir) {
  TraceTruth truth;
  Problem p;
  p.P = spec.P, p.M = spec.M, p.v = spec.v;
  Result<Schedule> made = Generate(spec.schedule, p);
  if (!made) return truth;
  if (spec.fill_drain >= 0) {
    auto& q = made->devices[spec.fill_drain];
    const auto b = std::stable_partition(q.begin(), q.end(),
                                         [&](const Slot& slot) { return made->space.At(slot.op).kind == OpKind::kF; });
    std::reverse(b, q.end());
  }
  const Schedule& s = *made;
  const OpSpace space = s.space;
  const Tick unit = spec.legacy ? 1000 : 1;  // legacy traces hold whole µs
  std::mt19937 rng(spec.seed);
  std::normal_distribution<double> z(0.0, 1.0);
  p.ticks_per_unit = 1;
  p.comm = spec.latency / unit * unit;
  p.op_durations.assign(space.size(), 0);
  for (int r = 0; r < p.P; ++r) {
    for (const Slot& slot : s.devices[r]) {
      const Op op = space.At(slot.op);
      double base = static_cast<double>(op.kind == OpKind::kF   ? spec.f[op.stage]
                                        : op.kind == OpKind::kW ? spec.w[op.stage]
                                        : (!s.split_backward || slot.full) ? spec.b[op.stage] + spec.w[op.stage]
                                                                           : spec.b[op.stage]);
      if (slot.pair()) {  // the forward's stage is slot.op's (schedule_builder.h)
        const Op back = space.At(slot.overlapped);
        base = static_cast<double>(
            !spec.fb.empty() ? spec.fb[op.stage]
                             : spec.f[op.stage] + spec.b[back.stage] + (slot.full ? spec.w[back.stage] : 0));
      }
      base *= std::exp(spec.sigma * z(rng) - spec.sigma * spec.sigma / 2);
      if (r == spec.straggler) base *= spec.factor;
      p.op_durations[slot.op] = std::llround(base / static_cast<double>(unit)) * unit;
    }
  }
  Result<Timeline> t = Place(p, s);
  if (!t) return truth;
  truth.makespan = t->makespan;
  const Tick base_ns = 1'735'632'360'000'000'000;
  const Tick origin = 5'000'000'000;  // true time 0 on the ranks' clocks, before skew
  for (int r = 0; r < p.P; ++r) {
    const Tick skew = (static_cast<Tick>(rng() % 41) - 20) * 1000 + (spec.legacy ? 0 : static_cast<Tick>(rng() % 1000));
    truth.skew.push_back(skew);
    auto ts = [&](Tick true_ns) {  // the text of a `ts` on rank r's clock
      const Tick clock = origin + true_ns + skew;
      char buf[64];
      if (spec.legacy) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>((base_ns + clock) / 1000));
      else std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(clock / 1000),
                         static_cast<long long>(clock % 1000));
      return std::string(buf);
    };
    auto dur = [&](Tick ns) {
      char buf[64];
      if (spec.legacy) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(ns / 1000));
      else std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
      return std::string(buf);
    };
    std::string ev;
    auto event = [&](const std::string& cat, const std::string& name, int pid, int tid, Tick start, Tick length,
                     const std::string& args) {
      ev += std::string(ev.empty() ? "" : ",\n") + "{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
            "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + ts(start) +
            ", \"dur\": " + dur(length) + ", \"args\": {" + args + "}}";
    };
    truth.orders.emplace_back();
    Tick cpu = -400'000;
    int ext = 100, corr = 1000;
    const Tick step_start = cpu - 10'000;
    for (const Slot& slot : s.devices[r]) {
      const Op op = space.At(slot.op);
      const std::string action = PyTorchAction(space, slot, s.split_backward);
      truth.orders.back().push_back(action);
      const Tick gs = t->Start(slot.op), ge = t->end[slot.op];
      cpu = std::max(cpu + 30'000, gs - 300'000) / unit * unit;  // issued ahead of the GPU, in order
      event("user_annotation", "PP:" + action, 7000 + r, 7000 + r, cpu, 40'000, "\"External id\": " + std::to_string(ext));
      event("cuda_runtime", "cudaLaunchKernel", 7000 + r, 7000 + r, cpu + 10'000, 4'000,
            "\"External id\": " + std::to_string(ext + 1) + ", \"correlation\": " + std::to_string(corr));
      event("kernel", "gemm", r, 7, gs, ge - gs,
            "\"External id\": " + std::to_string(ext + 1) + ", \"correlation\": " + std::to_string(corr));
      if (spec.annotations) {  // Kineto's 1 ns on each side, where the layout can hold it
        const Tick pad = spec.legacy ? 0 : 1;
        event("gpu_user_annotation", "PP:" + action, r, 7, gs - pad, ge - gs + 2 * pad,
              "\"External id\": " + std::to_string(ext));
      }
      if (op.kind == OpKind::kF && op.stage + 1 < space.stages())  // a SEND range: no compute
        event("user_annotation", "PP:" + std::to_string(op.stage) + "SEND_F" + std::to_string(op.microbatch),
              7000 + r, 7000 + r, cpu + 42'000, 5'000, "\"External id\": " + std::to_string(ext + 2));
      ext += 3;
      ++corr;
    }
    cpu += 60'000;
    event("user_annotation", "ProfilerStep#5", 7000 + r, 7000 + r, step_start, cpu - step_start, "");
    // A step cut off by the end of profiling: its one range has no GPU work.
    event("user_annotation", "ProfilerStep#6", 7000 + r, 7000 + r, cpu + 1000, 100'000, "");
    event("user_annotation", "PP:" + std::to_string(r) + "F0", 7000 + r, 7000 + r, cpu + 2000, 40'000,
          "\"External id\": 99999");
    const std::string file = dir + "/rank" + std::to_string(r) + ".json";
    std::ofstream out(file);
    out << "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " << r
        << ", \"world_size\": " << p.P << "},\n";
    if (!spec.legacy) out << "\"baseTimeNanoseconds\": " << base_ns << ",\n";
    out << "\"traceEvents\": [\n" << ev << "\n], \"traceName\": \"generated\"}\n";
    truth.files.push_back(file);
  }
  return truth;
}

}  // namespace ppsim::testing

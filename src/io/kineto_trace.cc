// ReadKinetoTrace: the SAX pass (kineto_events.cc), then the links: each PP:
// range's GPU interval from its gpu_user_annotation, or from the kernels its
// launches started; the step chosen; every time moved onto the rank's clock.
#include "ppsim/io/kineto_trace.h"

#include <algorithm>
#include <unordered_map>

#include "kineto_events.h"
#include "kineto_source.h"
#include "ppsim/io/atomic_file.h"

namespace ppsim::io {
namespace {

// "0F3", "1I2", "1W2", "0B1" or an overlapped pair "(0F7;7B3)OVERLAP_F_B": a
// compute action (the others are SEND/RECV, REDUCE_GRAD and the like).
bool IsCompute(const std::string& a) {
  if (a.starts_with('(') && a.ends_with(")OVERLAP_F_B")) return true;
  size_t i = 0;
  while (i < a.size() && a[i] >= '0' && a[i] <= '9') ++i;
  if (i == 0 || i + 1 >= a.size()) return false;
  const char k = a[i];
  if (k != 'F' && k != 'B' && k != 'I' && k != 'W') return false;
  for (size_t j = i + 1; j < a.size(); ++j)
    if (a[j] < '0' || a[j] > '9') return false;
  return true;
}

bool ParseStepNumber(const std::string& s, std::int64_t& n) {
  if (s.empty() || s.size() > 18) return false;
  n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  return true;
}

// GPU intervals of every action: annotation first, else linked kernels.
void LinkGpu(const KinetoEvents& ev, std::vector<KinetoAction>& actions, const std::vector<std::int64_t>& ext_ids) {
  std::unordered_map<std::int64_t, const KinetoEvents::GpuRange*> by_ext;
  by_ext.reserve(ev.gpu_pp.size());
  for (const auto& g : ev.gpu_pp) by_ext.emplace(g.ext_id, &g);
  std::unordered_map<std::int64_t, const KinetoEvents::Kernel*> by_corr;
  by_corr.reserve(ev.kernels.size());
  for (const auto& k : ev.kernels) by_corr.emplace(k.correlation, &k);
  std::vector<KinetoEvents::Launch> launches = ev.launches;
  std::sort(launches.begin(), launches.end(), [](const auto& a, const auto& b) { return a.ts < b.ts; });
  for (size_t i = 0; i < actions.size(); ++i) {
    KinetoAction& a = actions[i];
    const bool compute = IsCompute(a.name);
    auto it = std::lower_bound(launches.begin(), launches.end(), a.cpu_start,
                               [](const KinetoEvents::Launch& l, Tick t) { return l.ts < t; });
    Tick lo = -1, hi = -1;
    for (; it != launches.end() && it->ts <= a.cpu_end; ++it) {
      const auto k = by_corr.find(it->correlation);
      if (k == by_corr.end() || k->second->comm == compute) continue;  // compute ops own no NCCL kernel, and vice versa
      if (a.first_launch < 0) a.first_launch = it->ts;
      lo = lo < 0 ? k->second->start : std::min(lo, k->second->start);
      hi = std::max(hi, k->second->end);
    }
    if (const auto g = by_ext.find(ext_ids[i]); ext_ids[i] >= 0 && g != by_ext.end()) {
      const Tick trim = g->second->end - g->second->start >= 2 ? 1 : 0;  // Kineto's 1 ns each side
      a.gpu_start = g->second->start + trim;
      a.gpu_end = g->second->end - trim;
      a.annotated = true;
    } else if (lo >= 0) {
      a.gpu_start = lo;
      a.gpu_end = hi;
    }
  }
}

// The parts (DeepSeek's "attn(F)" ranges) with the kernels launched inside
// each, in CPU order.
std::vector<KinetoPart> LinkParts(KinetoEvents& ev) {
  std::unordered_map<std::int64_t, const KinetoEvents::Kernel*> by_corr;
  for (const auto& k : ev.kernels) by_corr.emplace(k.correlation, &k);
  std::sort(ev.launches.begin(), ev.launches.end(), [](const auto& a, const auto& b) { return a.ts < b.ts; });
  std::stable_sort(ev.parts.begin(), ev.parts.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  std::vector<KinetoPart> parts;
  for (const auto& r : ev.parts) {
    KinetoPart p;
    p.name = r.name.substr(0, r.name.size() - 3);
    p.kind = r.name[r.name.size() - 2];
    p.cpu_start = r.start;
    p.cpu_end = r.end;
    auto it = std::lower_bound(ev.launches.begin(), ev.launches.end(), r.start,
                               [](const KinetoEvents::Launch& l, Tick t) { return l.ts < t; });
    for (; it != ev.launches.end() && it->ts <= r.end; ++it)
      if (const auto k = by_corr.find(it->correlation); k != by_corr.end())
        p.kernels.push_back({k->second->stream, k->second->start, k->second->end, k->second->comm});
    parts.push_back(std::move(p));
  }
  return parts;
}

bool StepComplete(const std::vector<KinetoAction>& actions) {
  bool any = false;
  for (const auto& a : actions) {
    if (!IsCompute(a.name)) continue;
    if (a.gpu_start < 0) return false;
    any = true;
  }
  return any;
}

// A trace without PP: ranges: its parts, of the step asked for or of the
// last step whose parts ran kernels.
Result<KinetoTrace> ReadParts(KinetoEvents& ev, KinetoTrace t, const KinetoReadOptions& options,
                              const std::string& shown) {
  std::vector<KinetoPart> all = LinkParts(ev);
  auto in_step = [&all](const KinetoStep& s) {
    std::vector<KinetoPart> out;
    for (const auto& p : all)
      if (p.cpu_start >= s.cpu_start && p.cpu_start < s.cpu_end) out.push_back(p);
    return out;
  };
  auto ran = [](const std::vector<KinetoPart>& parts) {
    for (const auto& p : parts)
      if (!p.kernels.empty()) return true;
    return false;
  };
  if (t.steps.empty()) {
    t.parts = std::move(all);
  } else {
    for (auto s = t.steps.rbegin(); s != t.steps.rend(); ++s) {
      if (options.step >= 0 ? s->number != options.step : !ran(in_step(*s))) continue;
      t.step = s->number;
      t.parts = in_step(*s);
      break;
    }
    if (t.step < 0)
      return Fail(options.step >= 0 ? ErrorCode::kInvalidValue : ErrorCode::kParse,
                  shown + (options.step >= 0 ? ": no ProfilerStep#" + std::to_string(options.step)
                                             : std::string(": no ProfilerStep whose part ranges ran kernels")));
  }
  const Tick base = ev.has_base ? ev.base_ns : 0;
  for (auto& s : t.steps) s.cpu_start += base, s.cpu_end += base;
  for (auto& p : t.parts) {
    p.cpu_start += base;
    p.cpu_end += base;
    for (auto& k : p.kernels) k.start += base, k.end += base;
  }
  return t;
}

}  // namespace

Result<KinetoTrace> ReadKinetoTrace(const std::string& path, const KinetoReadOptions& options) {
  const std::string shown = DisplayPath(path);
  Result<std::unique_ptr<KinetoSource>> source = KinetoSource::Open(path);
  if (!source) return source.error();
  if (options.progress)
    (*source)->OnProgress([&](std::int64_t bytes) { options.progress(path, bytes); }, std::int64_t{1} << 30);
  Result<KinetoEvents> collected = CollectKinetoEvents(**source);
  if (!collected) return Fail(collected.error().code, shown + ": " + collected.error().message);
  KinetoEvents& ev = *collected;
  KinetoTrace t;
  t.file = path;
  t.events = ev.events;
  t.relative = ev.has_base;
  if (!ev.has_trace_events) {
    if (options.skip_non_trace) return t;
    return Fail(ErrorCode::kParse, shown + ": no traceEvents: not a profiler trace");
  }
  if (ev.rank == -1) return Fail(ErrorCode::kParse, shown + ": no distributedInfo.rank (which pipeline rank is this?)");
  if (ev.rank < 0) return Fail(ErrorCode::kParse, shown + ": distributedInfo.rank is not a rank number");
  t.rank = ev.rank;
  t.world_size = ev.world_size;
  if (ev.pp.empty() && ev.parts.empty())
    return Fail(ErrorCode::kParse, shown + ": no PP: ranges (record_function(\"PP:<action>\") of torch.distributed."
                                           "pipelining) nor part ranges (\"attn(F)\"); is this a pipeline-parallel "
                                           "training step?");
  for (const auto& s : ev.steps) {
    KinetoStep step;
    if (!ParseStepNumber(s.name, step.number)) continue;
    step.cpu_start = s.start;
    step.cpu_end = s.end;
    t.steps.push_back(step);
  }
  if (ev.pp.empty()) return ReadParts(ev, std::move(t), options, shown);
  // Every action with its GPU interval, then the step's.
  std::vector<KinetoAction> all;
  std::vector<std::int64_t> ext_ids;
  all.reserve(ev.pp.size());
  std::stable_sort(ev.pp.begin(), ev.pp.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
  for (auto& r : ev.pp) {
    KinetoAction a;
    a.name = std::move(r.name);
    a.cpu_start = r.start;
    a.cpu_end = r.end;
    all.push_back(std::move(a));
    ext_ids.push_back(r.ext_id);
  }
  LinkGpu(ev, all, ext_ids);
  auto in_step = [&all](const KinetoStep& s) {
    std::vector<KinetoAction> out;
    for (const auto& a : all)
      if (a.cpu_start >= s.cpu_start && a.cpu_start < s.cpu_end) out.push_back(a);
    return out;
  };
  if (t.steps.empty()) {
    if (options.step >= 0)
      return Fail(ErrorCode::kInvalidValue, shown + ": step " + std::to_string(options.step) +
                                                 " asked for, but the trace has no ProfilerStep ranges");
    t.actions = std::move(all);
  } else if (options.step >= 0) {
    std::string known;
    for (const auto& s : t.steps) {
      if (s.number == options.step) {
        t.step = s.number;
        t.actions = in_step(s);
        break;
      }
      known += (known.empty() ? "" : ", ") + std::to_string(s.number);
    }
    if (t.step < 0)
      return Fail(ErrorCode::kInvalidValue,
                  shown + ": no ProfilerStep#" + std::to_string(options.step) + " (the trace has " + known + ")");
  } else {
    for (auto s = t.steps.rbegin(); s != t.steps.rend(); ++s) {
      std::vector<KinetoAction> actions = in_step(*s);
      if (StepComplete(actions)) {
        t.step = s->number;
        t.actions = std::move(actions);
        break;
      }
    }
    if (t.step < 0)
      return Fail(ErrorCode::kParse, shown + ": no complete ProfilerStep (none has GPU work for every PP: compute "
                                             "range)");
  }
  if (t.actions.empty())
    return Fail(ErrorCode::kParse, shown + ": ProfilerStep#" + std::to_string(t.step) + " holds no PP: ranges");
  const Tick base = ev.has_base ? ev.base_ns : 0;
  for (auto* steps : {&t.steps}) {
    for (auto& s : *steps) s.cpu_start += base, s.cpu_end += base;
  }
  for (auto& a : t.actions) {
    a.cpu_start += base;
    a.cpu_end += base;
    if (a.gpu_start >= 0) a.gpu_start += base, a.gpu_end += base;
    if (a.first_launch >= 0) a.first_launch += base;
  }
  return t;
}

}  // namespace ppsim::io

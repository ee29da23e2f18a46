#include "ppsim/validate.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include "ppsim/checked.h"
#include "ppsim/placement.h"
#include "ppsim/slices.h"

namespace ppsim {
namespace {

// "F3@s0", or "F3.1@s0" for slice 1 of microbatch 3 when `slices` > 1.
std::string Name(const PlacedOp& op, int slices) {
  if (slices <= 1) return OpName(op.op());
  return std::string(1, KindChar(op.kind)) + std::to_string(op.microbatch) + "." + std::to_string(op.slice) + "@s" +
         std::to_string(op.stage);
}
// "missing" violations listed one by one; beyond this many, one line counts the rest.
constexpr std::int64_t kMissingListed = 1000;

std::string Span(const PlacedOp& op) {
  return "[" + std::to_string(op.start) + ", " + std::to_string(op.end) + ")";
}

struct Checker {
  const TimelineToCheck& in;
  std::vector<Violation> out;
  int P = 0, S = 0, M = 0;
  int K = 1;             // sequence slices; op ids count slice units m·K + k (slices.h)
  bool split = false;
  bool recompute = false;  // some op is an R: ids for R exist (op.h)
  OpSpace space;
  std::vector<int> index;  // by OpId: position in in.ops, -1 if absent
  std::int64_t unlisted = 0;  // found beyond kMaxViolationsListed

  std::string Name(const PlacedOp& op) const { return ppsim::Name(op, K); }
  OpId IdOf(const PlacedOp& op) const { return space.Id(op.kind, op.microbatch * K + op.slice, op.stage); }


  // The cost the timeline declares for `op` (its "costs"), if it declares
  // one; an overlapped pair's is its compound cost, not checked here.
  std::optional<Tick> DeclaredCost(const PlacedOp& op) const {
    if (!in.costs || op.overlap >= 0 || op.stage < 0 || op.stage >= S) return std::nullopt;
    auto given = [&](const std::vector<Tick>& per_stage) {
      return per_stage.size() == 1 || static_cast<int>(per_stage.size()) > op.stage;
    };
    const std::vector<Tick>& per_stage = op.kind == OpKind::kF   ? in.costs->f
                                         : op.kind == OpKind::kB ? in.costs->b
                                         : op.kind == OpKind::kW ? in.costs->w
                                                                 : in.costs->r;
    if (op.full ? !(in.costs->bw.empty() ? given(in.costs->b) && given(in.costs->w) : given(in.costs->bw))
                : !given(per_stage))
      return std::nullopt;  // no cost given
    const Tick cost = op.full ? in.costs->FullBackward(op.stage) : in.costs->Of(op.kind, op.stage);
    // A slice costs its weight's share, a microbatch its factor (slices.h);
    // both ≤ the limits simulate applies, so the product fits.
    const auto factor = [](const std::vector<Tick>& w, int i) {
      return w.empty() ? Tick{1} : i < static_cast<int>(w.size()) ? w[i] : Tick{-1};
    };
    const Tick by_slice = factor(in.slice_weights, op.slice), by_mb = factor(in.microbatch_weights, op.microbatch);
    if (by_slice < 0 || by_mb < 0) return std::nullopt;  // no weight given for it
    const std::optional<Tick> sliced = CheckedMul(cost, by_slice);
    return sliced ? CheckedMul(*sliced, by_mb) : std::nullopt;  // beyond int64: not checked
  }

  void Add(const char* rule, std::string message) {
    if (static_cast<std::int64_t>(out.size()) < kMaxViolationsListed) out.push_back({rule, std::move(message)});
    else ++unlisted;
  }

  bool Shape() {
    // The shape's limits are the CLI's (problem.h), checked before anything
    // is allocated; a declared or inferred size outside them is one violation.
    constexpr int kMaxStages = kMaxDevices * kMaxChunks;
    for (auto [name, value, limit] : {std::tuple<const char*, int, int>{"P", in.P, kMaxDevices},
                                      {"stages", in.S, kMaxStages}, {"M", in.M, kMaxMicrobatches}}) {
      if (value < 0 || value > limit) {
        Add("too-large", std::string(name) + " = " + std::to_string(value) + " is outside 0.." +
                             std::to_string(limit) + " (0 = inferred from the ops)");
        return false;
      }
    }
    P = in.P;
    S = in.S;
    M = in.M;
    if (in.slices < 1 || in.slices > kMaxSlices) {
      Add("too-large", "slices = " + std::to_string(in.slices) + " is outside 1.." + std::to_string(kMaxSlices));
      return false;
    }
    K = in.slices;
    for (const PlacedOp& op : in.ops) {
      recompute = recompute || op.kind == OpKind::kR;
      // An index beyond the limits is reported as "unknown" below, not inferred.
      if (in.P == 0 && op.device >= 0 && op.device < kMaxDevices) P = std::max(P, op.device + 1);
      if (in.S == 0 && op.stage >= 0 && op.stage < kMaxStages) S = std::max(S, op.stage + 1);
      if (in.M == 0 && op.microbatch >= 0 && op.microbatch < kMaxMicrobatches) M = std::max(M, op.microbatch + 1);
      split = split || op.kind == OpKind::kW || op.full;
    }
    if (in.ops.empty()) {
      Add("missing", "the timeline has no ops");
      return false;
    }
    const int kinds_max = recompute ? 4 : 3;
    if (std::int64_t{kinds_max} * S * M * K > kMaxOps) {
      Add("too-large", "S·M·slices = " + std::to_string(std::int64_t{S} * M * K) +
                           " stage-microbatch slices exceeds the limit " + std::to_string(kMaxOps / kinds_max));
      return false;
    }
    const bool dual = in.placement && *in.placement == Placement::kDualPipe;
    space = OpSpace(S, M * K, dual ? S / 2 : 0, recompute);  // DualPipe: two chains, see OpSpace
    index.assign(space.size(), -1);
    std::vector<int> device_of_stage(S, -1);
    for (size_t i = 0; i < in.ops.size(); ++i) {
      const PlacedOp& op = in.ops[i];
      if (op.device < 0 || op.device >= P || op.stage < 0 || op.stage >= S || op.microbatch < 0 ||
          op.microbatch >= M || op.slice < 0 || op.slice >= K) {
        Add("unknown", Name(op) + " on device " + std::to_string(op.device) + " is outside P=" +
                           std::to_string(P) + ", S=" + std::to_string(S) + ", M=" + std::to_string(M) +
                           (K > 1 || op.slice != 0 ? ", slices=" + std::to_string(K) : ""));
        continue;
      }
      const OpId id = IdOf(op);
      if (index[id] >= 0) {
        Add("duplicate", Name(op) + " appears twice (at " + Span(in.ops[index[id]]) + " and " + Span(op) + ")");
        continue;
      }
      index[id] = static_cast<int>(i);
      // An op of no duration is legal only where the timeline declares a
      // cost of 0 (a stage with no layer, Problem::empty_stages).
      if (op.end < op.start || !CheckedSub(op.end, op.start) || (op.end == op.start && DeclaredCost(op) != Tick{0}))
        Add("duration", Name(op) + " has no positive duration: " + Span(op));
      if (in.placement) {
        Problem p;
        p.P = P;
        p.v = std::max(1, S / std::max(1, P));
        p.placement = *in.placement;
        if (p.DeviceOf(op.stage) != op.device)
          Add("device", Name(op) + " runs on device " + std::to_string(op.device) + " but stage " +
                            std::to_string(op.stage) + " belongs to device " + std::to_string(p.DeviceOf(op.stage)));
      } else if (device_of_stage[op.stage] < 0) {
        device_of_stage[op.stage] = op.device;
      } else if (device_of_stage[op.stage] != op.device) {
        Add("device", Name(op) + " runs on device " + std::to_string(op.device) + " but stage " +
                          std::to_string(op.stage) + " ran on device " + std::to_string(device_of_stage[op.stage]));
      }
    }
    const int kinds = split ? 3 : 2;
    // R: a stage runs one per microbatch (slice) when its declared R cost
    // is > 0, or, without costs, when the timeline lists any R there.
    std::vector<bool> stage_r(S, false);
    for (int s = 0; s < S && recompute; ++s) {
      if (in.costs && !in.costs->r.empty()) {
        stage_r[s] = in.costs->Of(OpKind::kR, s) > 0;
        continue;
      }
      for (int u = 0; u < M * K && !stage_r[s]; ++u)
        stage_r[s] = space.Exists(u, s) && index[space.Id(OpKind::kR, u, s)] >= 0;
    }
    std::int64_t missing = 0;
    for (int k = 0; k < kinds + (recompute ? 1 : 0); ++k)
      for (int s = 0; s < S; ++s)
        for (int u = 0; u < M * K; ++u) {
          if (!space.Exists(u, s)) continue;
          const OpKind kind = k == kinds ? OpKind::kR : static_cast<OpKind>(k);
          const int at = index[space.Id(kind, u, s)];
          const int b = index[space.Id(OpKind::kB, u, s)];
          const bool full = b >= 0 && in.ops[b].full;  // a full backward has no W
          if (kind == OpKind::kR && !stage_r[s]) {
            if (at >= 0) Add("unknown", Name(in.ops[at]) + ": stage " + std::to_string(s) + " recomputes nothing");
          } else if (kind == OpKind::kW && full) {
            if (at >= 0) Add("duplicate", Name(in.ops[at]) + " belongs to a full backward, which has no W");
          } else if (at < 0 && ++missing <= kMissingListed) {
            Add("missing", SliceOpName(space, K, space.Id(kind, u, s)) + " is missing");
          }
        }
    if (missing > kMissingListed)
      Add("missing", "... and " + std::to_string(missing - kMissingListed) + " more ops are missing");
    return true;
  }

  void Durations() {
    if (!in.costs) return;
    for (const PlacedOp& op : in.ops) {
      const std::optional<Tick> want = DeclaredCost(op);
      if (!want) continue;
      const std::optional<Tick> lasts = CheckedSub(op.end, op.start);
      if (!lasts) continue;  // reported by Shape() as a "duration" violation
      if (*lasts != *want)
        Add("duration", Name(op) + " lasts " + std::to_string(*lasts) + " ticks but its cost is " +
                            std::to_string(*want));
    }
  }

  // Returns, per op index, the end of the previous op on its device (0 if first).
  std::vector<Tick> Devices() {
    std::vector<std::vector<int>> by_device(P);
    for (size_t i = 0; i < in.ops.size(); ++i)
      if (in.ops[i].device >= 0 && in.ops[i].device < P) by_device[in.ops[i].device].push_back(static_cast<int>(i));
    std::vector<Tick> free_before(in.ops.size(), 0);
    for (int d = 0; d < P; ++d) {
      auto& list = by_device[d];
      const auto earlier = [&](int a, int b) {
        return std::tie(in.ops[a].start, in.ops[a].end) < std::tie(in.ops[b].start, in.ops[b].end);
      };
      // `simulate --json` lists each device's ops in the order they run: no sort then.
      if (!std::is_sorted(list.begin(), list.end(), earlier)) std::stable_sort(list.begin(), list.end(), earlier);
      Tick free_at = 0;
      int last = -1;
      for (int i : list) {
        const PlacedOp& op = in.ops[i];
        const bool same_pair = last >= 0 && op.overlap >= 0 && in.ops[last].overlap == op.overlap &&
                               in.ops[last].start == op.start && in.ops[last].end == op.end;
        if (same_pair) {
          free_before[i] = free_before[last];
          continue;
        }
        if (last >= 0 && op.start < free_at)
          Add("overlap", "device " + std::to_string(d) + " runs " + Name(in.ops[last]) + " " + Span(in.ops[last]) +
                             " and " + Name(op) + " " + Span(op) + " at once");
        free_before[i] = free_at;
        free_at = std::max(free_at, op.end);
        last = i;
      }
    }
    return free_before;
  }

  // Reports in order of start (ties in input order). Each op's readiness
  // depends only on the input, so ops are checked in input order and only
  // the ones reported are sorted.
  void Dependencies(const std::vector<Tick>& free_before) {
    const auto earlier = [&](int a, int b) { return in.ops[a].start < in.ops[b].start; };
    // When each op's own dependency lets it start (-1: it was skipped, or it
    // starts before its dependency ends), and why: the index of that
    // dependency, or kDeviceFree. The words are built only for the ops reported.
    constexpr int kDeviceFree = -1;
    std::vector<Tick> ready(in.ops.size(), -1);
    std::vector<int> why(in.ops.size(), kDeviceFree);
    auto comm = [&](const PlacedOp& d, const PlacedOp& op) { return d.device == op.device ? 0 : in.comm; };
    auto because = [&](int i) {
      const PlacedOp& op = in.ops[i];
      if (why[i] == kDeviceFree)
        return "device " + std::to_string(op.device) + " is free at " + std::to_string(free_before[i]);
      const PlacedOp& d = in.ops[why[i]];
      const Tick c = comm(d, op);
      return Name(d) + " ends at " + std::to_string(d.end) + (c ? " +" + std::to_string(c) + " comm" : "");
    };
    // An overlapped pair starts when both of its ops may: the later of the
    // two (of equal ones, the first by start, then input order).
    std::map<std::pair<int, int>, int> pair_latest;  // (device, overlap) -> op index
    for (int i = 0; i < static_cast<int>(in.ops.size()); ++i) {
      const PlacedOp& op = in.ops[i];
      if (op.stage < 0 || op.stage >= S || op.microbatch < 0 || op.microbatch >= M || op.slice < 0 || op.slice >= K)
        continue;
      ready[i] = free_before[i];
      OpId deps[3];
      const int n = DependenciesOf(space, K, in.recompute_at, IdOf(op), deps);  // as Place (slices.h)
      for (int j = 0; j < n && ready[i] >= 0; ++j) {
        if (index[deps[j]] < 0) continue;  // missing: reported by Shape()
        const PlacedOp& d = in.ops[index[deps[j]]];
        const Tick c = comm(d, op);
        // Past the end of time, nothing can wait that long: a dependency violation.
        const Tick at = CheckedAdd(d.end, c).value_or(std::numeric_limits<Tick>::max());
        if (op.start < at) {
          ready[i] = -1;
          why[i] = index[deps[j]];
        } else if (at > ready[i]) {
          ready[i] = at;
          why[i] = index[deps[j]];
        }
      }
      if (ready[i] < 0 || op.overlap < 0) continue;
      auto [it, first] = pair_latest.try_emplace({op.device, op.overlap}, i);
      const int was = it->second;
      if (!first && (ready[i] > ready[was] || (ready[i] == ready[was] && op.start < in.ops[was].start))) it->second = i;
    }
    std::vector<int> reported;  // ops with a violation, in input order
    for (int i = 0; i < static_cast<int>(in.ops.size()); ++i) {
      if (ready[i] < 0) {
        if (why[i] != kDeviceFree) reported.push_back(i);
        continue;
      }
      const PlacedOp& op = in.ops[i];
      const int by = op.overlap < 0 ? i : pair_latest.at({op.device, op.overlap});
      if (ready[by] >= 0 && op.start > ready[by]) reported.push_back(i);
    }
    std::stable_sort(reported.begin(), reported.end(), earlier);
    for (int i : reported) {
      if (ready[i] < 0) {
        if (why[i] == kDeviceFree) continue;  // skipped: its shape was reported
        const PlacedOp& op = in.ops[i];
        const PlacedOp& d = in.ops[why[i]];
        const Tick c = comm(d, op);
        Add("dependency", Name(op) + " starts at " + std::to_string(op.start) + " but " + Name(d) + " ends at " +
                              std::to_string(d.end) + (c ? " (+" + std::to_string(c) + " comm)" : ""));
        continue;
      }
      const PlacedOp& op = in.ops[i];
      const int by = op.overlap < 0 ? i : pair_latest.at({op.device, op.overlap});
      if (ready[by] < 0 || op.start <= ready[by]) continue;
      Add("not-tight", Name(op) + " starts at " + std::to_string(op.start) + " but could start at " +
                           std::to_string(ready[by]) + " (" + because(by) + ")");
    }
  }
};

}  // namespace

std::vector<Violation> ValidateTimeline(const TimelineToCheck& timeline, std::int64_t* unlisted) {
  Checker c{timeline, {}, 0, 0, 0, 1, false, false, OpSpace(), {}};
  if (c.Shape()) {
    c.Durations();
    const std::vector<Tick> free_before = c.Devices();
    c.Dependencies(free_before);
  }
  if (unlisted != nullptr) *unlisted = c.unlisted;
  return c.out;
}

}  // namespace ppsim

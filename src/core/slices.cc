#include "ppsim/slices.h"

#include <numeric>

#include "ppsim/microbatch_lengths.h"
#include "ppsim/placement.h"

namespace ppsim {

std::vector<Tick> SliceWeights(const Problem& p) {
  const int K = std::max(1, p.slices);
  std::vector<Tick> w(K, 1);
  if (p.slice_rule == SliceRule::kList && static_cast<int>(p.slice_weights.size()) == K) w = p.slice_weights;
  if (p.slice_rule == SliceRule::kCausal)
    for (int k = 0; k < K; ++k) w[k] = K * (12 * p.hidden + 1) + p.seq_len * (2 * k + 1);
  Tick g = 0;
  for (Tick x : w) g = std::gcd(g, x);
  if (g > 1)
    for (Tick& x : w) x /= g;
  return w;
}

Tick SliceWeightTotal(const Problem& p) {
  Tick total = 0;
  for (Tick x : SliceWeights(p)) total += x;
  return total;
}

Error CheckSlices(const Problem& p) {
  if (Error e = CheckMicrobatchLengths(p); !e.ok()) return e;
  if (!p.microbatch_weights.empty() && static_cast<int>(p.microbatch_weights.size()) != p.M)
    return Error::Field(ErrorCode::kInvalidValue, "microbatch_costs",
                        ": " + std::to_string(p.microbatch_weights.size()) + " values given for M = " +
                            std::to_string(p.M) + " microbatches");
  for (Tick x : p.microbatch_weights)
    if (x < 1 || x > (1 << 20))
      return Error::Field(ErrorCode::kInvalidValue, "microbatch_costs",
                          ": each value must be in [1, 1048576], got " + std::to_string(x));
  const std::string K = std::to_string(p.slices);
  if (p.slices < 1) return Error::Field(ErrorCode::kInvalidValue, "slices", " must be ≥ 1, got " + K);
  if (p.slices > kMaxSlices)
    return Error::Field(ErrorCode::kTooLarge, "slices",
                        ": " + K + " exceeds the limit " + std::to_string(kMaxSlices) + " (refused before allocating)");
  if (p.slice_rule == SliceRule::kList) {
    if (static_cast<int>(p.slice_weights.size()) != p.slices)
      return Error::Field(ErrorCode::kInvalidValue, "slice_costs",
                          ": " + std::to_string(p.slice_weights.size()) + " values given for " + K + " slices");
    for (Tick x : p.slice_weights)
      if (x < 1 || x > kMaxCost)
        return Error::Field(ErrorCode::kInvalidValue, "slice_costs",
                            ": each value must be in [1, " + std::to_string(kMaxCost) + "], got " + std::to_string(x));
  }
  if (p.seq_len < 0 || p.hidden < 0)
    return Error::Field(ErrorCode::kInvalidValue, p.seq_len < 0 ? "seq_len" : "hidden", " must be ≥ 0");
  if (p.seq_len > 0 && p.seq_len % p.slices != 0)
    return Error::Field(ErrorCode::kInvalidValue, "slices",
                        ": " + K + " slices do not cut seq_len = " + std::to_string(p.seq_len) +
                            " into equal parts");
  if (p.slice_rule == SliceRule::kCausal && (p.seq_len == 0 || p.hidden == 0))
    return Error::Field(ErrorCode::kInvalidValue, "slice_costs",
                        ": causal needs seq_len and hidden (the cost of slice k is 12·hidden·K + K + "
                        "seq_len·(2k+1), docs/semantics.md)");
  return Error::Ok();
}

int DependenciesOf(const OpSpace& space, int slices, RecomputeAt at, OpId id, OpId deps[3]) {
  int n = 0;
  if (const OpId chain = DependencyOf(space, false, id); chain != kNoOp) deps[n++] = chain;
  const Op op = space.At(id);
  const int k = op.microbatch % slices;
  if (op.kind == OpKind::kF && k > 0) deps[n++] = space.Id(OpKind::kF, op.microbatch - 1, op.stage);
  if (op.kind == OpKind::kB && k + 1 < slices) deps[n++] = space.Id(OpKind::kB, op.microbatch + 1, op.stage);
  if (op.kind == OpKind::kB && space.recompute()) deps[n++] = space.Id(OpKind::kR, op.microbatch, op.stage);
  if (op.kind == OpKind::kR && at == RecomputeAt::kBeforeB && !space.IsLastStage(op.stage))
    deps[n++] = space.Id(OpKind::kB, op.microbatch, op.stage + 1);
  return n;
}

std::string SliceOpName(const OpSpace& space, int slices, OpId id) {
  const Op op = space.At(id);
  if (slices <= 1) return OpName(op);
  return std::string(1, KindChar(op.kind)) + std::to_string(op.microbatch / slices) + "." +
         std::to_string(op.microbatch % slices) + "@s" + std::to_string(op.stage);
}

namespace {

void BuildInto(const Problem& p, const Schedule& schedule, OpGraph& g) {
  const OpSpace& space = schedule.space;
  const int S = space.stages(), K = p.slices;
  const bool recompute = space.recompute();
  const int kinds = recompute ? 4 : schedule.split_backward ? 3 : 2;  // R ids come after W's (op.h)
  const std::vector<Tick> weight = SliceWeights(p);
  const int U = space.microbatches();
  const std::vector<Tick> mb_weight = MicrobatchWeights(p);
  const bool per_mb = !mb_weight.empty();
  g.latency.assign(1, 0);
  g.Reset(std::int64_t{kinds} * S * U);
  g.deps.reserve(static_cast<size_t>(2 * 2 * std::int64_t{S} * U));
  for (int d = 0; d < static_cast<int>(schedule.devices.size()); ++d)
    for (const Slot& slot : schedule.devices[d]) {
      g.device[slot.op] = d;
      if (slot.full) g.duration[slot.op] = -1;  // a full backward: costed below
    }
  std::vector<std::uint32_t> hop(S, 0);  // latency class between s and s+1
  for (int s = 0; s + 1 < S; ++s) hop[s] = g.LatencyClass(p.CommBetween(s, s + 1));
  const bool early = p.recompute_at == RecomputeAt::kEarly;
  // Ids in order (microbatch-major, op.h): rows q = 2u + kind, then W rows, then R rows.
  for (OpId q = 0; q < kinds * U; ++q) {
    const OpKind kind = q < 2 * U ? static_cast<OpKind>(q & 1) : q < 3 * U ? OpKind::kW : OpKind::kR;
    const int u = q < 2 * U ? q >> 1 : q - (q < 3 * U ? 2 : 3) * U, k = u % K;
    for (int s = 0; s < S; ++s) {
      const OpId id = q * S + s;
      if (g.device[id] < 0) continue;
      const Tick cost = g.duration[id] < 0 ? p.costs.FullBackward(s) : p.costs.Of(kind, s);
      g.duration[id] = cost * weight[k] * (per_mb ? mb_weight[u / K] : 1);
      if (kind == OpKind::kF) {
        if (!space.IsFirstStage(s)) g.Add(id, id - 1, hop[s - 1]);
        if (k > 0) g.Add(id, id - 2 * S, 0);  // F(u-1, s): the K/V of the slices before
      } else if (kind == OpKind::kB) {
        if (!space.IsLastStage(s)) g.Add(id, id + 1, hop[s]);
        else g.Add(id, id - S, 0);  // F(u, s)
        if (k + 1 < K) g.Add(id, id + 2 * S, 0);  // B(u+1, s): the K/V gradient of the slices after
        if (recompute && g.device[space.Id(OpKind::kR, u, s)] >= 0) g.Add(id, space.Id(OpKind::kR, u, s), 0);
      } else if (kind == OpKind::kR) {  // recompute.h: after its F; Megatron's also after B's gradient
        g.Add(id, space.Id(OpKind::kF, u, s), 0);
        if (!early && !space.IsLastStage(s)) g.Add(id, space.Id(OpKind::kB, u, s + 1), hop[s]);
      } else {
        g.Add(id, space.Id(OpKind::kB, u, s), 0);
      }
    }
  }
  g.Seal();
}

}  // namespace

OpGraph BuildSliceGraph(const Problem& p, const Schedule& schedule) {
  OpGraph g;
  BuildInto(p, schedule, g);
  return g;
}

Error PlaceSliced(const Problem& p, Schedule&& schedule, Timeline& t) {
  const OpSpace space = schedule.space;
  for (const std::vector<Slot>& queue : schedule.devices)
    for (const Slot& slot : queue)
      if (slot.pair())
        return Fail(ErrorCode::kBadSchedule, "overlapped pair " + SliceOpName(space, p.slices, slot.op) + " with " +
                                                 SliceOpName(space, p.slices, slot.overlapped) +
                                                 ": sequence slices and per-microbatch costs run no overlapped pairs");
  // The graph's buffers are kept for the next placement on this thread, as
  // PlaceInto keeps a timeline's: a sweep or a benchmark allocates once.
  thread_local OpGraph g;
  BuildInto(p, schedule, g);
  t.problem = p;
  t.end.assign(g.ids(), -1);
  t.stored_start.assign(g.ids(), -1);
  const int K = p.slices;
  Result<Tick> makespan = PlaceGraph(g, schedule.devices, t.end.data(), t.stored_start.data(),
                                     [&space, K](OpId id) { return SliceOpName(space, K, id); });
  if (!makespan.ok()) return makespan.error();
  t.makespan = *makespan;
  t.schedule = std::move(schedule);
  return Error::Ok();
}

}  // namespace ppsim

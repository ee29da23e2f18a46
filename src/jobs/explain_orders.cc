// The pipeline the traces ran: PyTorch action strings parsed, stages mapped
// to ranks, ppsim's schedule built and checked, and the registry searched
// for a schedule with the same order.
#include <algorithm>

#include "explain_internal.h"
#include "ppsim/generators.h"
#include "ppsim/io/atomic_file.h"

namespace ppsim::jobs::explain {
namespace {

struct Parsed {
  enum Type { kCompute, kComm, kOther, kUnsupported, kBad } type = kBad;
  int stage = 0;
  char letter = 0;
  int microbatch = 0;
};

bool ReadInt(const std::string& s, size_t& i, int& out) {
  const size_t from = i;
  long long v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - from < 9) v = v * 10 + (s[i++] - '0');
  out = static_cast<int>(v);
  return i > from && (i == s.size() || s[i] < '0' || s[i] > '9');
}

// PyTorch's str(_Action): "<stage><type><mb>" for compute, "<stage>SEND_F<mb>"
// and the like for communication, "<stage>REDUCE_GRAD", "(..)OVERLAP_F_B".
Parsed ParseAction(const std::string& a) {
  Parsed p;
  if (!a.empty() && a[0] == '(') return {Parsed::kUnsupported};
  size_t i = 0;
  if (!ReadInt(a, i, p.stage) || i >= a.size()) return p;
  const std::string rest = a.substr(i);
  if (rest == "REDUCE_GRAD" || rest == "UNSHARD" || rest == "RESHARD") return {Parsed::kOther, p.stage};
  for (const char* comm : {"SEND_F", "SEND_B", "RECV_F", "RECV_B"}) {
    if (rest.rfind(comm, 0) == 0) {
      size_t j = i + 6;
      if (ReadInt(a, j, p.microbatch) && j == a.size()) p.type = Parsed::kComm;
      return p;
    }
  }
  p.letter = a[i++];
  if (p.letter != 'F' && p.letter != 'B' && p.letter != 'I' && p.letter != 'W') return p;
  if (ReadInt(a, i, p.microbatch) && i == a.size()) p.type = Parsed::kCompute;
  return p;
}

Error Bad(const io::KinetoTrace& t, const std::string& what) {
  return Fail(ErrorCode::kBadSchedule, io::DisplayPath(t.file) + ": rank " + std::to_string(t.rank) + ": " + what);
}

}  // namespace

Result<Pipeline> BuildPipeline(const std::vector<io::KinetoTrace>& traces) {
  Pipeline pl;
  const int P = static_cast<int>(traces.size());
  pl.ops.resize(P);
  int S = 0, M = 0;
  for (int r = 0; r < P; ++r) {
    const io::KinetoTrace& t = traces[r];
    for (const io::KinetoAction& a : t.actions) {
      const Parsed p = ParseAction(a.name);
      if (p.type == Parsed::kUnsupported)
        return Bad(t, "action '" + a.name + "': overlapped actions are not read yet (docs/explain.md)");
      if (p.type == Parsed::kBad) return Bad(t, "action '" + a.name + "' is not a PyTorch pipeline action");
      if (p.type != Parsed::kCompute) continue;
      if (a.gpu_start < 0) return Bad(t, "action '" + a.name + "' has no GPU work in the trace");
      MeasuredOp op;
      op.action = a.name;
      op.rank = r;
      op.stage = p.stage;
      op.microbatch = p.microbatch;
      op.letter = p.letter;
      op.kind = p.letter == 'F' ? OpKind::kF : p.letter == 'W' ? OpKind::kW : OpKind::kB;
      op.start = a.gpu_start;
      op.end = a.gpu_end;
      op.cpu_start = a.cpu_start;
      op.first_launch = a.first_launch;
      pl.split = pl.split || p.letter == 'I' || p.letter == 'W';
      S = std::max(S, p.stage + 1);
      M = std::max(M, p.microbatch + 1);
      pl.ops[r].push_back(std::move(op));
    }
    if (pl.ops[r].empty()) return Bad(t, "no compute action (F, B, I or W) in the step");
    // A rank runs its compute ops one at a time, in its order, on its stream.
    for (size_t i = 1; i < pl.ops[r].size(); ++i) {
      const MeasuredOp &a = pl.ops[r][i - 1], &b = pl.ops[r][i];
      if (b.start < a.end)
        return Bad(t, "action '" + b.action + "' starts on the GPU " + std::to_string(a.end - b.start) +
                          " ns before '" + a.action + "', issued before it, ends (GPU ranges overlap)");
    }
  }
  if (S % P != 0)
    return Fail(ErrorCode::kBadSchedule, std::to_string(S) + " stages on " + std::to_string(P) +
                                             " ranks: not a whole number of stages per rank");
  if (S > kMaxDevices * kMaxChunks || M > kMaxMicrobatches)
    return Fail(ErrorCode::kTooLarge, "stage or microbatch numbers past the limits (docs/reliability.md)");
  pl.stage_to_rank.assign(S, -1);
  for (int r = 0; r < P; ++r) {
    for (const MeasuredOp& op : pl.ops[r]) {
      int& owner = pl.stage_to_rank[op.stage];
      if (owner >= 0 && owner != r)
        return Bad(traces[r], "action '" + op.action + "': stage " + std::to_string(op.stage) + " also runs on rank " +
                                  std::to_string(owner));
      owner = r;
    }
  }
  const int v = S / P;
  bool loop = true, vshape = v == 2;
  for (int s = 0; s < S; ++s) {
    if (pl.stage_to_rank[s] < 0)
      return Fail(ErrorCode::kBadSchedule, "stage " + std::to_string(s) + " runs no action on any rank");
    loop = loop && pl.stage_to_rank[s] == s % P;
    vshape = vshape && pl.stage_to_rank[s] == (s < P ? s : 2 * P - 1 - s);
  }
  if (!loop && !vshape)
    return Fail(ErrorCode::kBadSchedule, "stages are placed on ranks neither in a loop (s mod P) nor in a V");
  Problem& prob = pl.problem;
  prob.P = P;
  prob.M = M;
  prob.v = v;
  prob.placement = loop ? Placement::kLoop : Placement::kVShape;
  prob.cost_basis = CostBasis::kChunk;
  prob.ticks_per_unit = 1;
  prob.costs.f = {1};
  prob.costs.b = {1};
  prob.costs.w = {1};
  if (Error e = ValidateProblem(prob); !e.ok()) return e;
  Schedule& sched = pl.schedule;
  sched.name = "measured";
  sched.split_backward = pl.split;
  sched.space = prob.Space();
  sched.devices.resize(P);
  for (int r = 0; r < P; ++r) {
    for (const MeasuredOp& op : pl.ops[r]) {
      Slot slot;
      slot.op = sched.space.Id(op.kind, op.microbatch, op.stage);
      slot.full = pl.split && op.letter == 'B';
      sched.devices[r].push_back(slot);
    }
  }
  if (Error e = CheckComplete(prob, sched); !e.ok())
    return Fail(ErrorCode::kBadSchedule, "the actions are not a complete schedule: " + e.message);
  return pl;
}

std::optional<Schedule> RegistryOrder(const Pipeline& pl, const GeneratorInfo& g) {
  if (g.split_backward != pl.split) return std::nullopt;
  if (g.fixed_chunks != 0 && g.fixed_chunks != pl.problem.v) return std::nullopt;
  Problem p = pl.problem;
  p.costs = Costs{};
  p.ticks_per_unit = 0;
  p.cost_basis = CostBasis::kStage;
  Result<Schedule> s = Generate(g.name, p);
  if (!s || p.v != pl.problem.v || p.placement != pl.problem.placement) return std::nullopt;
  return std::move(*s);
}

std::string MatchRegistry(const Pipeline& pl) {
  for (const GeneratorInfo& g : Generators()) {
    const std::optional<Schedule> s = RegistryOrder(pl, g);
    if (s && s->devices == pl.schedule.devices) return g.name;
  }
  return "";
}

}  // namespace ppsim::jobs::explain

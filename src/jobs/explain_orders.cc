// The pipeline the traces ran: PyTorch action strings parsed, stages mapped
// to ranks, ppsim's schedule built and checked, and the registry searched
// for a schedule with the same order.
#include <algorithm>
#include <string_view>

#include "explain_internal.h"
#include "ppsim/generators.h"
#include "ppsim/io/atomic_file.h"

namespace ppsim::jobs::explain {
namespace {

struct Parsed {
  enum Type { kCompute, kComm, kOther, kPair, kBad } type = kBad;
  int stage = 0;
  char letter = 0;
  int microbatch = 0;
  // kPair: the backward's (the fields above are the forward's); kBad: why,
  // when it is a malformed pair.
  int pair_stage = -1;
  char pair_letter = 0;
  int pair_microbatch = 0;
  std::string why;
};

bool ReadInt(const std::string& s, size_t& i, int& out) {
  const size_t from = i;
  long long v = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - from < 9) v = v * 10 + (s[i++] - '0');
  out = static_cast<int>(v);
  return i > from && (i == s.size() || s[i] < '0' || s[i] > '9');
}

Parsed ParseAction(const std::string& a);

// "(<F action>;<B action>)OVERLAP_F_B": _Action.__repr__ of an OVERLAP_F_B
// action, its sub-actions joined by ';' (docs/explain.md); one forward and
// one backward (B or I), in either order.
Parsed ParsePair(const std::string& a) {
  constexpr std::string_view kTail = ")OVERLAP_F_B";
  Parsed bad;
  if (!a.ends_with(kTail)) {
    bad.why = "does not end in ')OVERLAP_F_B'";
    return bad;
  }
  const std::string inner = a.substr(1, a.size() - 1 - kTail.size());
  const size_t semi = inner.find(';');
  if (semi == std::string::npos || inner.find(';', semi + 1) != std::string::npos) {
    bad.why = "is not two actions joined by ';'";
    return bad;
  }
  const Parsed x = ParseAction(inner.substr(0, semi)), y = ParseAction(inner.substr(semi + 1));
  const bool xf = x.type == Parsed::kCompute && x.letter == 'F', yf = y.type == Parsed::kCompute && y.letter == 'F';
  auto backward = [](const Parsed& q) { return q.type == Parsed::kCompute && (q.letter == 'B' || q.letter == 'I'); };
  if (!(xf && backward(y)) && !(yf && backward(x))) {
    bad.why = "is not one forward (F) and one backward (B or I)";
    return bad;
  }
  Parsed p = xf ? x : y;
  const Parsed& b = xf ? y : x;
  p.type = Parsed::kPair;
  p.pair_stage = b.stage;
  p.pair_letter = b.letter;
  p.pair_microbatch = b.microbatch;
  return p;
}

// PyTorch's str(_Action): "<stage><type><mb>" for compute, "<stage>SEND_F<mb>"
// and the like for communication, "<stage>REDUCE_GRAD", "(..;..)OVERLAP_F_B".
Parsed ParseAction(const std::string& a) {
  Parsed p;
  if (!a.empty() && a[0] == '(') return ParsePair(a);
  if (a.find("OVERLAP_F_B") != std::string::npos) {
    p.why = "an OVERLAP_F_B pair is written (<F action>;<B action>)OVERLAP_F_B";
    return p;
  }
  size_t i = 0;
  if (!ReadInt(a, i, p.stage) || i >= a.size()) return p;
  const std::string rest = a.substr(i);
  if (rest == "REDUCE_GRAD" || rest == "UNSHARD" || rest == "RESHARD") {
    p.type = Parsed::kOther;
    return p;
  }
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
      if (p.type == Parsed::kBad && !p.why.empty())
        return Bad(t, "action '" + a.name + "' is no overlapped pair: it " + p.why);
      if (p.type == Parsed::kBad) return Bad(t, "action '" + a.name + "' is not a PyTorch pipeline action");
      if (p.type != Parsed::kCompute && p.type != Parsed::kPair) continue;
      if (a.gpu_start < 0) return Bad(t, "action '" + a.name + "' has no GPU work in the trace");
      MeasuredOp op;
      op.action = a.name;
      op.rank = r;
      op.stage = p.stage;
      op.microbatch = p.microbatch;
      op.letter = p.letter;
      op.kind = p.letter == 'F' ? OpKind::kF : p.letter == 'W' ? OpKind::kW : OpKind::kB;
      if (p.type == Parsed::kPair) {
        op.letter = '&';
        op.pair_stage = p.pair_stage;
        op.pair_letter = p.pair_letter;
        op.pair_microbatch = p.pair_microbatch;
        S = std::max(S, p.pair_stage + 1);
        M = std::max(M, p.pair_microbatch + 1);
      }
      op.start = a.gpu_start;
      op.end = a.gpu_end;
      op.cpu_start = a.cpu_start;
      op.first_launch = a.first_launch;
      pl.split = pl.split || p.letter == 'I' || p.letter == 'W' || p.pair_letter == 'I';
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
      for (int stage : {op.stage, op.pair_stage}) {
        if (stage < 0) continue;
        int& owner = pl.stage_to_rank[stage];
        if (owner >= 0 && owner != r)
          return Bad(traces[r], "action '" + op.action + "': stage " + std::to_string(stage) + " also runs on rank " +
                                    std::to_string(owner));
        owner = r;
      }
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
  // DualPipe's two copies: a V whose first P stages carry microbatches
  // [0, M/2) and whose last P carry [M/2, M), each only its own.
  bool dual = vshape && M % 2 == 0;
  for (int r = 0; r < P && dual; ++r)
    for (const MeasuredOp& op : pl.ops[r]) {
      dual = dual && (op.stage < P) == (op.microbatch < M / 2) &&
             (!op.pair() || (op.pair_stage < P) == (op.pair_microbatch < M / 2));
      if (!dual) break;
    }
  Problem& prob = pl.problem;
  prob.P = P;
  prob.M = M;
  prob.v = v;
  prob.placement = loop ? Placement::kLoop : dual ? Placement::kDualPipe : Placement::kVShape;
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
      slot.op = op.Id(sched.space);
      if (op.pair()) slot.overlapped = op.PairId(sched.space);
      slot.full = pl.split && (op.pair() ? op.pair_letter : op.letter) == 'B';
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

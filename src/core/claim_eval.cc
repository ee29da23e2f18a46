// Evaluating claims: every node bottom-up, exactly.
#include <algorithm>
#include <string>

#include "ppsim/claims.h"
#include "ppsim/metric_table.h"
#include "ppsim/cost_scale.h"

namespace ppsim {

Params ProblemParams(const Problem& problem) {
  Params p{{"P", problem.P}, {"M", problem.M}, {"v", problem.v}, {"comm", problem.comm}};
  // A kind's cost is a parameter when it is the same on every stage; B, W
  // and BW are what the model derives where not given (docs/costs.md).
  if (problem.costs.f.size() == 1) p["F"] = problem.costs.f[0];
  const BackwardCosts backward = UniformBackward(problem);
  if (backward.b) p["B"] = *backward.b;
  if (backward.w) p["W"] = *backward.w;
  if (backward.bw) p["BW"] = *backward.bw;
  return p;
}

std::string ClaimValue::ToString() const {
  if (is_truth) return truth ? "true" : "false";
  return number.ToString();
}

std::string ClaimValue::ToText() const {
  if (is_truth) return truth ? "true" : "false";
  return number.ToText();
}

std::string ClaimValue::ToDisplay() const {
  if (is_truth) return truth ? "true" : "false";
  return number.ToDisplay();
}

namespace {

using Kind = Claim::Kind;

std::string RunList(const std::vector<Run>& runs) {
  std::string names;
  for (const Run& r : runs) names += (names.empty() ? "" : ", ") + r.name;
  return names;
}

const Run* FindRun(const std::vector<Run>& runs, std::string_view name) {
  for (const Run& r : runs)
    if (r.name == name) return &r;
  return nullptr;
}

class Evaluator {
 public:
  Evaluator(const Claim& claim, const std::vector<Run>& runs, const Params& params)
      : claim_(claim), runs_(runs), params_(params), values_(claim.nodes().size()),
        evaluated_(claim.nodes().size(), false) {}

  Result<Evaluation> Evaluated() {
    if (!Eval(claim_.root())) {
      Error e = Fail(err_code_, err_);
      e.column = err_column_;
      return e;
    }
    Evaluation e;
    e.value = values_[claim_.root()];
    e.values = std::move(named_);
    AddSides(claim_.root(), &e.values);
    return e;
  }

 private:
  bool Bad(ErrorCode code, int column, std::string what) {
    err_code_ = code;
    err_column_ = column;
    err_ = std::move(what);
    return false;
  }
  void Name(std::string name, const ClaimValue& v) {
    for (const NamedValue& n : named_)
      if (n.name == name) return;
    named_.push_back({std::move(name), v});
  }
  // Children first; `and` / `or` stop once the left side decides.
  bool Eval(int i) {
    const Claim::Node& n = claim_.nodes()[i];
    if (n.a >= 0 && !Eval(n.a)) return false;
    const bool decided = (n.kind == Kind::kAnd && !values_[n.a].truth) || (n.kind == Kind::kOr && values_[n.a].truth);
    if (n.b >= 0 && !decided && !Eval(n.b)) return false;
    evaluated_[i] = true;
    if (decided) {
      values_[i].is_truth = true;
      values_[i].truth = n.kind == Kind::kOr;
      return true;
    }
    return Node(i);
  }
  // Both sides of every evaluated comparison, unless already listed (source order).
  void AddSides(int i, std::vector<NamedValue>* out) const {
    const Claim::Node& n = claim_.nodes()[i];
    if (!evaluated_[i]) return;
    if (n.a >= 0 && n.kind != Kind::kMetric) AddSides(n.a, out);
    if (n.b >= 0) AddSides(n.b, out);
    if (n.kind < Kind::kEq || n.kind > Kind::kGe) return;
    for (int side : {n.a, n.b}) {
      const Claim::Node& s = claim_.nodes()[side];
      if (s.kind == Kind::kNumber) continue;
      bool seen = false;
      for (const NamedValue& v : *out) seen = seen || v.name == s.text;
      if (!seen) out->push_back({s.text, values_[side]});
    }
  }
  bool Arith(int i, std::optional<Rational> r) {
    if (r) {
      values_[i].number = *r;
      return true;
    }
    const Claim::Node& n = claim_.nodes()[i];
    if (n.kind == Kind::kDiv && values_[n.b].number == Rational(0))
      return Bad(ErrorCode::kInvalidValue, n.column, "division by zero in '" + n.text + "'");
    return Bad(ErrorCode::kTooLarge, n.column, "'" + n.text + "' overflows 64-bit exact arithmetic");
  }
  bool Node(int i) {
    const Claim::Node& n = claim_.nodes()[i];
    ClaimValue& out = values_[i];
    out.is_truth = n.truth;
    const Rational& a = n.a >= 0 ? values_[n.a].number : out.number;
    const Rational& b = n.b >= 0 ? values_[n.b].number : out.number;
    switch (n.kind) {
      case Kind::kNumber: out.number = n.number; return true;
      case Kind::kParam: {
        auto it = params_.find(n.name);
        if (it == params_.end()) return Bad(ErrorCode::kUnknownName, n.column, UnknownParam(n.name));
        out.number = it->second;
        Name(n.name, out);
        return true;
      }
      case Kind::kMetric: return Metric(i);
      case Kind::kNeg: return Arith(i, a.Neg());
      case Kind::kNot: out.truth = !values_[n.a].truth; return true;
      case Kind::kAdd: return Arith(i, a.Add(b));
      case Kind::kSub: return Arith(i, a.Sub(b));
      case Kind::kMul: return Arith(i, a.Mul(b));
      case Kind::kDiv: return Arith(i, a.Div(b));
      case Kind::kEq:
      case Kind::kNe: {
        const ClaimValue &l = values_[n.a], &r = values_[n.b];
        const bool eq = l.is_truth ? l.truth == r.truth : l.number == r.number;
        out.truth = n.kind == Kind::kEq ? eq : !eq;
        return true;
      }
      case Kind::kLt: out.truth = a < b; return true;
      case Kind::kLe: out.truth = a <= b; return true;
      case Kind::kGt: out.truth = a > b; return true;
      case Kind::kGe: out.truth = a >= b; return true;
      case Kind::kAnd: out.truth = values_[n.a].truth && values_[n.b].truth; return true;
      case Kind::kOr: out.truth = values_[n.a].truth || values_[n.b].truth; return true;
      case Kind::kFloor:
      case Kind::kCeil: {
        // Round toward -infinity (floor) or +infinity (ceil), exactly.
        std::int64_t q = a.num() / a.den();
        if (a.num() % a.den() != 0 && (a.num() < 0) == (n.kind == Kind::kFloor)) q += n.kind == Kind::kFloor ? -1 : 1;
        out.number = q;
        return true;
      }
      case Kind::kMin: out.number = a < b ? a : b; return true;
      case Kind::kMax: out.number = a < b ? b : a; return true;
    }
    return Bad(ErrorCode::kInternal, n.column, "unknown node");
  }
  std::string UnknownParam(const std::string& name) const {
    std::string known;
    for (const auto& [k, v] : params_) known += (known.empty() ? "" : ", ") + k;
    return "unknown parameter '" + name + "' (parameters: " + known + ")";
  }
  bool Metric(int i) {
    const Claim::Node& n = claim_.nodes()[i];
    const Run* run = FindRun(runs_, n.run);
    if (!run)
      return Bad(ErrorCode::kUnknownName, n.run_column, "no run named '" + n.run + "' (runs: " + RunList(runs_) + ")");
    const Problem& problem = run->timeline.problem;
    const MetricInfo& metric = *FindMetric(n.name);  // the parser admits only the table's names
    Rational& out = values_[i].number;
    std::string name = n.name + "(" + n.run + ")";
    int device = -1;
    if (n.a >= 0) {
      const Rational d = values_[n.a].number;
      if (!d.integral() || d.num() < 0 || d.num() >= problem.P)
        return Bad(ErrorCode::kInvalidValue, claim_.nodes()[n.a].column,
                   "device " + d.ToString() + " is out of range: run '" + n.run + "' has devices 0.." +
                       std::to_string(problem.P - 1));
      device = static_cast<int>(d.num());
      name = n.name + "(" + n.run + ", " + d.ToString() + ")";
    }
    const std::optional<Rational> r = metric.value(run->metrics, problem, device);
    if (!r) return Bad(ErrorCode::kTooLarge, n.column, "'" + n.text + "' overflows 64-bit exact arithmetic");
    out = *r;
    Name(std::move(name), values_[i]);
    return true;
  }

  const Claim& claim_;
  const std::vector<Run>& runs_;
  const Params& params_;
  std::vector<ClaimValue> values_;
  std::vector<bool> evaluated_;
  std::vector<NamedValue> named_;
  ErrorCode err_code_ = ErrorCode::kOk;
  int err_column_ = 0;
  std::string err_;
};

// End ticks of every op the run's schedule holds, ascending.
std::vector<Tick> SortedEnds(const Timeline& t) {
  std::vector<Tick> ends;
  ends.reserve(t.schedule.op_count());
  for (const auto& queue : t.schedule.devices)
    for (const Slot& slot : queue)
      for (OpId id : {slot.op, OpId{slot.overlapped}})
        if (id != kNoOp) ends.push_back(t.end[id]);
  std::sort(ends.begin(), ends.end());
  return ends;
}

}  // namespace

Error CheckNames(const Claim& claim, const std::vector<std::string>& runs, const Params& params) {
  for (const Claim::Node& n : claim.nodes()) {
    int column = 0;
    std::string what;
    if (n.kind == Kind::kMetric && std::find(runs.begin(), runs.end(), n.run) == runs.end()) {
      std::string names;
      for (const std::string& r : runs) names += (names.empty() ? "" : ", ") + r;
      column = n.run_column;
      what = "no run named '" + n.run + "' (runs: " + names + ")";
    } else if (n.kind == Kind::kParam && params.find(n.name) == params.end()) {
      std::string known;
      for (const auto& [k, v] : params) known += (known.empty() ? "" : ", ") + k;
      column = n.column;
      what = "unknown parameter '" + n.name + "' (parameters: " + known + ")";
    } else {
      continue;
    }
    Error e = Fail(ErrorCode::kUnknownName, what);
    e.column = column;
    return e;
  }
  return Error::Ok();
}

Result<Evaluation> Evaluate(const Claim& claim, const std::vector<Run>& runs, const Params& params) {
  // Every name first: `and`, `or` and `implies` skip a side, and a typo on the
  // skipped side is still a typo (and a false claim then reads both runs).
  std::vector<std::string> names;
  for (const Run& r : runs) names.push_back(r.name);
  if (Error e = CheckNames(claim, names, params); !e.ok()) return e;
  return Evaluator(claim, runs, params).Evaluated();
}

std::optional<Divergence> FirstDivergence(const Run& a, const Run& b) {
  const std::vector<Tick> ea = SortedEnds(a.timeline), eb = SortedEnds(b.timeline);
  size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    // The next tick at which either run completes an op; counts change only there.
    const Tick t = i == ea.size() ? eb[j] : j == eb.size() ? ea[i] : std::min(ea[i], eb[j]);
    while (i < ea.size() && ea[i] == t) ++i;
    while (j < eb.size() && eb[j] == t) ++j;
    if (i != j) {
      Divergence d;
      d.tick = t;
      const bool a_ahead = i > j;
      d.ahead = a_ahead ? a.name : b.name;
      d.behind = a_ahead ? b.name : a.name;
      d.ahead_done = static_cast<std::int64_t>(a_ahead ? i : j);
      d.behind_done = static_cast<std::int64_t>(a_ahead ? j : i);
      return d;
    }
  }
  return std::nullopt;
}

std::string ClaimResult::Explain() const {
  std::string s = check + (holds ? " holds" : " is false");
  for (size_t i = 0; i < values.size(); ++i)
    s += (i == 0 ? ": " : ", ") + values[i].name + " = " + values[i].value.ToText();
  if (divergence) {
    const Divergence& d = *divergence;
    s += "; first tick where one run is ahead: " + std::to_string(d.tick) + " (" + d.ahead + " has completed " +
         std::to_string(d.ahead_done) + " ops, " + d.behind + " " + std::to_string(d.behind_done) + ")";
  }
  return s;
}

Result<ClaimResult> CheckClaim(std::string_view check, const std::vector<Run>& runs, const Params& params) {
  Result<Claim> claim = ParseClaim(check);
  if (!claim.ok()) return claim.error();
  return CheckClaim(*claim, runs, params);
}

Result<ClaimResult> CheckClaim(const Claim& claim, const std::vector<Run>& runs, const Params& params) {
  Result<Evaluation> e = Evaluate(claim, runs, params);
  if (!e.ok()) return e.error();
  ClaimResult r;
  r.check = claim.text();
  r.holds = e->value.truth;
  r.values = std::move(e->values);
  const std::vector<std::string> read = claim.Runs();
  if (!r.holds && read.size() == 2)
    r.divergence = FirstDivergence(*FindRun(runs, read[0]), *FindRun(runs, read[1]));
  return r;
}

bool AllHold(const std::vector<ClaimResult>& results) {
  return std::all_of(results.begin(), results.end(), [](const ClaimResult& r) { return r.holds; });
}

}  // namespace ppsim

#include "ppsim/cost_scale.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "ppsim/slices.h"

namespace ppsim {
namespace {

// The Costs vectors with their names, for errors.
template <typename C>
auto Fields(C& costs) {
  return std::array<std::pair<const char*, decltype(&costs.f)>, 6>{
      {{"F", &costs.f}, {"B", &costs.b}, {"W", &costs.w}, {"FB", &costs.fb}, {"BW", &costs.bw}, {"R", &costs.r}}};
}

// The stage of the model (at v = 1, 0..P-1) that virtual stage s is a piece of.
int ModelStageOf(const Problem& p, int s) {
  if (p.placement == Placement::kDualPipe) return s < p.P ? s : s - p.P;  // copy 1 runs s{P}..s{2P-1}
  return s / p.v;  // loop and V-shape: pieces of a stage are consecutive
}

// One run's costs in the model's units, over a common denominator: every
// value is `den` times the model's (den = 2 when B or W is half a backward).
struct UnitCosts {
  Costs costs;
  std::int64_t den = 1;
};

// `values` (1, S, or — stage basis — P values per model stage) spread to `n`
// values, n being 1 or S.
std::vector<Tick> Spread(const Problem& p, const std::vector<Tick>& values, size_t n) {
  if (values.size() == n) return values;
  std::vector<Tick> out(n);
  for (size_t s = 0; s < n; ++s)
    out[s] = values.size() == 1 ? values[0] : values[ModelStageOf(p, static_cast<int>(s))];
  return out;
}

// The model of work (docs/costs.md "One model of work"): B and W, derived
// where not given, and in an unsplit run b := the full backward.
Result<UnitCosts> ModelCosts(const Problem& p, bool split) {
  const Costs& c = p.costs;
  UnitCosts out{c, 1};
  const bool has_b = !c.b.empty(), has_w = !c.w.empty(), has_bw = !c.bw.empty();
  if (has_b && has_w && split) return out;  // nothing to derive
  if (has_b != has_w && !has_bw) {  // a half without the other: ValidateProblem's words
    Error e = ValidateProblem(p);
    return e.ok() ? Fail(ErrorCode::kInternal, "costs: one half of the backward given alone") : e;
  }
  size_t n = 1;
  for (const std::vector<Tick>* v : {&c.b, &c.w, &c.bw})
    if (v->size() > 1) n = static_cast<size_t>(p.stages());
  auto given = [&](const std::vector<Tick>& v) { return v.empty() ? std::vector<Tick>() : Spread(p, v, n); };
  const std::vector<Tick> b = given(c.b), w = given(c.w), bw = given(c.bw);
  // Twice each B and W; halved back below when every one is whole.
  std::vector<Tick> b2(n), w2(n);
  bool halves = false;
  for (size_t s = 0; s < n; ++s) {
    const Tick full = has_bw ? bw[s] : has_b ? b[s] + w[s] : 1;
    if (!split) {  // one op runs the whole backward; W is never read
      b2[s] = 2 * full;
      w2[s] = has_w ? 2 * w[s] : has_b ? 2 * b[s] : 2 * full;
      continue;
    }
    b2[s] = has_b ? 2 * b[s] : has_w ? 2 * (full - w[s]) : full;
    w2[s] = has_w ? 2 * w[s] : has_b ? 2 * (full - b[s]) : full;
    const std::string where = n == 1 ? "" : "[" + std::to_string(s) + "]";
    if (b2[s] < 1 || w2[s] < 1)
      return Error::Field(ErrorCode::kInvalidValue, "costs",
                          ": BW" + where + " = " + std::to_string(full) + " leaves no " + (b2[s] < 1 ? "B" : "W") +
                              " beside " + (b2[s] < 1 ? "W" : "B") + where + " = " +
                              std::to_string((b2[s] < 1 ? w2[s] : b2[s]) / 2) + " (B + W = BW)");
    halves = halves || b2[s] % 2 != 0 || w2[s] % 2 != 0;
  }
  out.den = halves ? 2 : 1;
  for (size_t s = 0; s < n; ++s) {
    b2[s] = halves ? b2[s] : b2[s] / 2;
    w2[s] = halves ? w2[s] : w2[s] / 2;
  }
  out.costs.b = std::move(b2);
  out.costs.w = std::move(w2);
  if (halves)
    for (std::vector<Tick>* v : {&out.costs.f, &out.costs.fb, &out.costs.bw, &out.costs.r})
      for (Tick& x : *v) x *= 2;
  return out;
}

// Into how many parts one unit of `uc` is cut: the chunks, times den.
// Sequence slices cut each chunk's cost by weight (slices.h): into the
// weights' sum, so that every slice's share is whole.
std::int64_t Parts(const Problem& p, const UnitCosts& uc) {
  const std::int64_t slices = p.slices > 1 ? SliceWeightTotal(p) : 1;
  return (p.cost_basis == CostBasis::kStage ? ChunksPerStage(p) / std::max(1, p.slices) : 1) * uc.den * slices;
}

}  // namespace

int ChunksPerStage(const Problem& p) {
  return (p.placement == Placement::kDualPipe ? 1 : p.v) * std::max(1, p.slices);
}

Result<std::int64_t> TicksPerUnit(const std::vector<Problem>& problems, const std::vector<bool>& split) {
  __int128 k = 1;
  for (size_t i = 0; i < problems.size(); ++i) {
    const Problem& p = problems[i];
    if (p.ticks_per_unit != 0) continue;
    const bool has_w = split.empty() || split[i];
    Result<UnitCosts> uc = ModelCosts(p, has_w);
    if (!uc.ok()) return uc.error();
    std::int64_t g = 0;  // gcd of every cost value used: the share divides k·g
    for (auto [name, values] : Fields(uc->costs))
      if (has_w || values != &uc->costs.w)
        for (Tick c : *values) g = std::gcd(g, c);
    const std::int64_t n = Parts(p, *uc);
    const std::int64_t need = n / std::gcd(n, g == 0 ? n : g);
    k = k / std::gcd(static_cast<std::int64_t>(k), need) * need;
    if (k > kMaxCost) return Fail(ErrorCode::kTooLarge, "ticks per cost unit exceed the limit " + std::to_string(kMaxCost));
  }
  return static_cast<std::int64_t>(k);
}

Error ScaleCosts(Problem& p, std::int64_t k, bool split) {
  if (p.ticks_per_unit != 0) return Error::Ok();
  Result<UnitCosts> uc = ModelCosts(p, split);
  if (!uc.ok()) return uc.error();
  const bool stage = p.cost_basis == CostBasis::kStage;
  const std::int64_t n = Parts(p, *uc);
  const std::int64_t den = uc->den;
  p.costs = std::move(uc->costs);
  const int S = p.stages();
  // `c` is in 1/den units; errors show the value the user gave.
  auto scale = [&](const std::string& field, Tick c, Tick& out) -> Error {
    const __int128 t = static_cast<__int128>(c) * k;
    if (!split && field[0] == 'W' && t % n != 0) {  // never read: any whole tick will do
      out = static_cast<Tick>(std::max<__int128>(1, std::min<__int128>(t / n, kMaxCost)));
      return Error::Ok();
    }
    const std::string given = c % den == 0 ? std::to_string(c / den) : std::to_string(c) + "/" + std::to_string(den);
    if (t % n != 0)
      return Fail(ErrorCode::kInvalidValue, "cost " + field + ": " + std::to_string(k) + " ticks per unit do not cut " +
                                                given + " into " + std::to_string(n / den) + " whole chunks");
    if (t / n > kMaxCost)
      return Fail(ErrorCode::kTooLarge, "cost " + field + " = " + given + " at " + std::to_string(k) +
                                            " ticks per unit exceeds the limit " + std::to_string(kMaxCost) + " ticks");
    out = static_cast<Tick>(t / n);
    return Error::Ok();
  };
  for (auto [name, values] : Fields(p.costs)) {
    std::vector<Tick> ticks(values->size());
    if (stage && values->size() == static_cast<size_t>(p.P) && p.P != S && p.P != 1) {
      ticks.resize(S);
      for (int s = 0; s < S; ++s) {
        const int from = ModelStageOf(p, s);
        Error e = scale(std::string(name) + "[" + std::to_string(from) + "]", (*values)[from], ticks[s]);
        if (e.code != ErrorCode::kOk) return e;
      }
    } else {
      for (size_t i = 0; i < values->size(); ++i) {
        Error e = scale(values->size() == 1 ? name : std::string(name) + "[" + std::to_string(i) + "]", (*values)[i],
                        ticks[i]);
        if (e.code != ErrorCode::kOk) return e;
      }
    }
    *values = std::move(ticks);
  }
  // Latencies are times, not work: in ticks, not divided by the chunks.
  const bool comm_too_large = static_cast<__int128>(p.comm) * k > kMaxCost;
  if (comm_too_large)
    return Fail(ErrorCode::kTooLarge, "comm = " + std::to_string(p.comm) + " at " + std::to_string(k) +
                                          " ticks per unit exceeds the limit " + std::to_string(kMaxCost) + " ticks");
  p.comm *= k;
  for (Tick& hop : p.comm_hops) {
    if (static_cast<__int128>(hop) * k > kMaxCost)
      return Fail(ErrorCode::kTooLarge, "comm hop " + std::to_string(hop) + " at " + std::to_string(k) +
                                            " ticks per unit exceeds the limit " + std::to_string(kMaxCost) + " ticks");
    hop *= k;
  }
  for (Tick* t : {&p.comms.latency, &p.comms.unshard, &p.comms.reduce_grad}) {
    if (static_cast<__int128>(*t) * k > kMaxCost)
      return Fail(ErrorCode::kTooLarge, "a link or collective time of " + std::to_string(*t) + " at " +
                                            std::to_string(k) + " ticks per unit exceeds the limit " +
                                            std::to_string(kMaxCost) + " ticks");
    *t *= k;
  }
  p.comms.time_scale = k;
  p.ticks_per_unit = k;
  return Error::Ok();
}

BackwardCosts UniformBackward(const Problem& p) {
  const Costs& c = p.costs;
  auto one = [](const std::vector<Tick>& v) { return v.size() == 1 ? std::optional<Rational>(v[0]) : std::nullopt; };
  BackwardCosts out{one(c.b), one(c.w), one(c.bw)};
  if (c.b.size() > 1 || c.w.size() > 1 || c.bw.size() > 1) return out;  // a list: nothing derived
  Result<UnitCosts> uc = ModelCosts(p, true);
  if (!uc.ok()) return out;  // a half without the other: refused when the problem is checked
  out.b = Rational::Of(uc->costs.b[0], uc->den);
  out.w = Rational::Of(uc->costs.w[0], uc->den);
  if (!out.bw) out.bw = out.b->Add(*out.w);
  return out;
}

std::string TickScaleText(const Problem& p) {
  const std::int64_t k = p.ticks_per_unit == 0 ? 1 : p.ticks_per_unit;
  const std::string unit = p.cost_basis == CostBasis::kStage ? "stage cost unit" : "chunk cost unit";
  return k == 1 ? "1 tick = 1 " + unit : "1 tick = 1/" + std::to_string(k) + " " + unit;
}

std::string CostBasisText(const Problem& p) {
  if (p.cost_basis == CostBasis::kChunk) return "costs per chunk (as given, --cost-per chunk)";
  const int n = ChunksPerStage(p) / std::max(1, p.slices);
  return n == 1 ? "costs per stage" : "costs per stage (a chunk costs 1/" + std::to_string(n) + ")";
}

}  // namespace ppsim

#include "ppsim/cost_scale.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace ppsim {
namespace {

// The Costs vectors with their names, for errors.
template <typename C>
auto Fields(C& costs) {
  return std::array<std::pair<const char*, decltype(&costs.f)>, 5>{
      {{"F", &costs.f}, {"B", &costs.b}, {"W", &costs.w}, {"FB", &costs.fb}, {"BW", &costs.bw}}};
}

// The stage of the model (at v = 1, 0..P-1) that virtual stage s is a piece of.
int ModelStageOf(const Problem& p, int s) {
  if (p.placement == Placement::kDualPipe) return s < p.P ? s : s - p.P;  // copy 1 runs s{P}..s{2P-1}
  return s / p.v;  // loop and V-shape: pieces of a stage are consecutive
}

bool NeedsScaling(const Problem& p) { return p.ticks_per_unit == 0 && p.cost_basis == CostBasis::kStage; }

}  // namespace

int ChunksPerStage(const Problem& p) { return p.placement == Placement::kDualPipe ? 1 : p.v; }

Result<std::int64_t> TicksPerUnit(const std::vector<Problem>& problems, const std::vector<bool>& split) {
  __int128 k = 1;
  for (size_t i = 0; i < problems.size(); ++i) {
    const Problem& p = problems[i];
    if (!NeedsScaling(p)) continue;
    const bool has_w = split.empty() || split[i];
    std::int64_t g = 0;  // gcd of every cost value used: the share divides k·g
    for (auto [name, values] : Fields(p.costs))
      if (has_w || values != &p.costs.w)
        for (Tick c : *values) g = std::gcd(g, c);
    const std::int64_t n = ChunksPerStage(p);
    const std::int64_t need = n / std::gcd(n, g == 0 ? n : g);
    k = k / std::gcd(static_cast<std::int64_t>(k), need) * need;
    if (k > kMaxCost) return Fail(ErrorCode::kTooLarge, "ticks per cost unit exceed the limit " + std::to_string(kMaxCost));
  }
  return static_cast<std::int64_t>(k);
}

Error ScaleCosts(Problem& p, std::int64_t k, bool split) {
  if (p.ticks_per_unit != 0) return Error{ErrorCode::kOk, ""};
  const bool stage = p.cost_basis == CostBasis::kStage;
  const std::int64_t n = stage ? ChunksPerStage(p) : 1;
  const int S = p.stages();
  auto scale = [&](const std::string& field, Tick c, Tick& out) -> Error {
    const __int128 t = static_cast<__int128>(c) * k;
    if (!split && field[0] == 'W' && t % n != 0) {  // never read: any whole tick will do
      out = static_cast<Tick>(std::max<__int128>(1, std::min<__int128>(t / n, kMaxCost)));
      return Error{ErrorCode::kOk, ""};
    }
    if (t % n != 0)
      return Fail(ErrorCode::kInvalidValue, "cost " + field + ": " + std::to_string(k) + " ticks per unit do not cut " +
                                                std::to_string(c) + " into " + std::to_string(n) + " whole chunks");
    if (t / n > kMaxCost)
      return Fail(ErrorCode::kTooLarge, "cost " + field + " = " + std::to_string(c) + " at " + std::to_string(k) +
                                            " ticks per unit exceeds the limit " + std::to_string(kMaxCost) + " ticks");
    out = static_cast<Tick>(t / n);
    return Error{ErrorCode::kOk, ""};
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
  p.ticks_per_unit = k;
  return Error{ErrorCode::kOk, ""};
}

std::string TickScaleText(const Problem& p) {
  const std::int64_t k = p.ticks_per_unit == 0 ? 1 : p.ticks_per_unit;
  const std::string unit = p.cost_basis == CostBasis::kStage ? "stage cost unit" : "chunk cost unit";
  return k == 1 ? "1 tick = 1 " + unit : "1 tick = 1/" + std::to_string(k) + " " + unit;
}

std::string CostBasisText(const Problem& p) {
  if (p.cost_basis == CostBasis::kChunk) return "costs per chunk (as given, --cost-per chunk)";
  const int n = ChunksPerStage(p);
  return n == 1 ? "costs per stage" : "costs per stage (a chunk costs 1/" + std::to_string(n) + ")";
}

}  // namespace ppsim

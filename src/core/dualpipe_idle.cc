#include "dualpipe_idle.h"

#include "uniform_cost.h"

namespace ppsim {

Prediction PredictDualPipeIdle(const Problem& p, int pairs, const char* formula) {
  Prediction out;
  const Tick f = p.costs.f[0], b = p.costs.b[0];
  const auto w = Uniform(p.costs.w);
  if (!w || *w > f) return out;
  // DeepSeek's F&B is ppsim's FB (default F + BW), its B the full backward
  // BW. Exact where F = B, BW = B + W, W ≤ F and F + W ≤ FB ≤ F + BW (from a
  // pair that saves all but W to no overlap).
  const auto fb = Uniform(p.costs.fb);
  const auto bw = p.costs.bw.empty() ? std::optional<Tick>(b + *w) : Uniform(p.costs.bw);
  const auto pair = p.costs.fb.empty() ? (bw ? std::optional<Tick>(f + *bw) : std::nullopt) : fb;
  if (!pair || !bw || b != f || *bw != b + *w || *pair < f + *w || *pair > f + *bw) return out;
  out.Add("max_device_idle", formula, Rational(std::int64_t{pairs - 1} * (*pair + *bw - 3 * *w)));
  return out;
}

}  // namespace ppsim

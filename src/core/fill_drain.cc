#include "fill_drain.h"

namespace ppsim {

Prediction FillDrainPrediction(const Problem& p) {
  Prediction out;
  const Tick fb = p.costs.f[0] + p.costs.b[0];
  out.makespan = (p.M + p.P - 1) * fb;
  out.makespan_formula = "(M+P-1)(F+B+W)";
  out.bubble_ratio = Rational::Of(p.P - 1, p.M);
  out.bubble_formula = "(P-1)/M";
  return out;
}

}  // namespace ppsim

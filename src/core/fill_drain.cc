#include "fill_drain.h"

namespace ppsim {

Prediction FillDrainPrediction(const Problem& p) {
  Prediction out;
  const Tick fb = p.costs.f[0] + p.costs.b[0];
  out.Add("makespan", "(M+P-1)(F+B+W)", Rational((p.M + p.P - 1) * fb));
  out.Add("bubble_ratio", "(P-1)/M", Rational::Of(p.P - 1, p.M));
  return out;
}

}  // namespace ppsim

#include <string_view>

#include "ppsim/claim_template.h"
#include "ppsim/claims.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"
#include "targets.h"

namespace ppsim::fuzz {
namespace {

// Two runs a claim can name (A: GPipe, B: 1F1B at P=4, M=6) and parameters.
const std::vector<Run>& Runs() {
  static const std::vector<Run> runs = [] {
    std::vector<Run> r;
    for (auto [name, schedule] : {std::pair{"A", "gpipe"}, std::pair{"B", "1f1b"}}) {
      Problem p;
      Result<Timeline> t = Simulate(schedule, p);
      r.push_back(Measured(name, std::move(*t)));
    }
    return r;
  }();
  return runs;
}

}  // namespace

int ClaimParser(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Params params = {{"P", Rational(4)}, {"M", Rational(6)}, {"comm", Rational(0)}};
  (void)CheckClaim(text, Runs(), params);
  (void)FillTemplate(text, Runs(), params);
  return 0;
}

}  // namespace ppsim::fuzz

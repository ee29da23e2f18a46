#include <string_view>

#include "ppsim/claim_template.h"
#include "ppsim/claims.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"
#include "targets.h"

namespace ppsim::fuzz {
namespace {

// Two runs a claim can name (A: GPipe, B: 1F1B at P=4, M=6) and parameters.
const std::vector<RunResult>& Runs() {
  static const std::vector<RunResult> runs = [] {
    std::vector<RunResult> r;
    for (auto [name, schedule] : {std::pair{"A", "gpipe"}, std::pair{"B", "1f1b"}}) {
      Problem p;
      Result<Timeline> t = Simulate(schedule, p);
      RunResult run{name, "", std::move(*t), {}};
      run.metrics = Measure(run.timeline);
      r.push_back(std::move(run));
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

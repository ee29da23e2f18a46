#include "ppsim/run.h"

#include <utility>

namespace ppsim {

Run Measured(std::string name, Timeline timeline, const MeasureOptions& options) {
  Run run{std::move(name), std::move(timeline), {}};
  run.metrics = Measure(run.timeline, options);
  return run;
}

}  // namespace ppsim

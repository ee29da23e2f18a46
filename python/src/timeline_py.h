// ppsim.Timeline: one placed run, read-only. Holds the C++ Run (shared,
// never copied); simulate()'s is measured on first use, and its ops become
// one numpy record array only when .ops is read — simulate() itself costs
// what the C++ placement costs.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>

#include "ppsim/run.h"

namespace ppsim::py {

class PyTimeline {
 public:
  // A run measured already (a comparison's, a search's): shares its ownership.
  explicit PyTimeline(std::shared_ptr<const Run> run) : run_(std::move(run)) {}
  // A placed timeline (simulate()), named after its schedule: measured on
  // first use, once for every copy.
  explicit PyTimeline(Timeline timeline);
  const Timeline& timeline() const { return run_->timeline; }
  const Metrics& metrics() { return run().metrics; }
  const Run& run();

 private:
  struct Unmeasured {
    Run run;  // metrics empty until measured
    std::once_flag measured;
  };
  std::shared_ptr<const Run> run_;
  std::shared_ptr<Unmeasured> unmeasured_;  // null for a run measured already
};



// The ops of `timeline` as a numpy record array (fields device, stage, kind,
// microbatch, start, end, overlap), in `simulate --json`'s order.
pybind11::object OpsArray(const Timeline& timeline);

}  // namespace ppsim::py

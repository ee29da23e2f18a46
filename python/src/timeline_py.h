// ppsim.Timeline: one placed run, read-only. Holds the C++ Timeline (shared,
// never copied); its Metrics are measured on first use, and its ops become
// one numpy record array only when .ops is read — simulate() itself costs
// what the C++ placement costs.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "ppsim/metrics.h"
#include "ppsim/timeline.h"

namespace ppsim::py {

class PyTimeline {
 public:
  explicit PyTimeline(std::shared_ptr<const Timeline> timeline, std::shared_ptr<const Metrics> metrics = nullptr)
      : timeline_(std::move(timeline)), metrics_(std::move(metrics)) {}
  const Timeline& timeline() const { return *timeline_; }
  const Metrics& metrics();

 private:
  std::shared_ptr<const Timeline> timeline_;
  std::shared_ptr<const Metrics> metrics_;
};



// The ops of `timeline` as a numpy record array (fields device, stage, kind,
// microbatch, start, end, overlap), in `simulate --json`'s order.
pybind11::object OpsArray(const Timeline& timeline);

}  // namespace ppsim::py

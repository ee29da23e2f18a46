// Schedule generators: each produces every device's queue order for a
// Problem. The registry (generators.cc) is the single list of known
// schedules; each schedule's file (src/core/<schedule>.cc) defines its
// GeneratorInfo: its order, its preconditions and its closed forms.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ppsim/closed_forms.h"
#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim {

struct GeneratorInfo {
  std::string name;           // --schedule value
  std::string description;    // one line
  std::string preconditions;  // one line, "" if none
  Placement placement = Placement::kLoop;
  int fixed_chunks = 0;       // v this schedule requires (e.g. 2 for zbv), 0 = any
  bool split_backward = false;
  // REQUIRES: the Problem passed ValidateProblem and this generator's checks.
  Result<Schedule> (*generate)(const Problem&) = nullptr;
  // Checks the schedule's own preconditions; returns kOk or kPrecondition.
  // nullptr: none beyond ValidateProblem.
  Error (*check)(const Problem&) = nullptr;
  // The published closed forms (closed_forms.h); nullptr: none.
  // REQUIRES: uniform F and B costs and no latency (Predict checks them).
  Prediction (*predict)(const Problem&) = nullptr;
  bool takes_group = false;  // reads Problem::group (--group)
  bool takes_slices = false;  // orders sequence slices (Problem::slices > 1 allowed; slices.h)
};

// The registry as a range of GeneratorInfo, in its order.
class GeneratorList {
 public:
  class Iterator {
   public:
    explicit Iterator(const GeneratorInfo* const* at) : at_(at) {}
    const GeneratorInfo& operator*() const { return **at_; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const Iterator&) const = default;

   private:
    const GeneratorInfo* const* at_;
  };
  GeneratorList(const GeneratorInfo* const* first, size_t size) : first_(first), size_(size) {}
  Iterator begin() const { return Iterator(first_); }
  Iterator end() const { return Iterator(first_ + size_); }
  size_t size() const { return size_; }

 private:
  const GeneratorInfo* const* first_;
  size_t size_;
};

// Every known schedule, in the order `ppsim list` prints them. The entries
// are ordinary globals: use them from main() on, not from another global's
// initializer.
GeneratorList Generators();
// nullptr if unknown.
const GeneratorInfo* FindGenerator(std::string_view name);
// "gpipe, 1f1b, ..." for error messages.
std::string KnownScheduleNames();

// Applies the generator's placement and chunk count to `problem` and
// validates it: what a run is, before its costs are scaled (cost_scale.h).
Error ResolveRun(std::string_view name, Problem& problem);

// Applies the generator's placement and chunk count to `problem`, validates
// it and the schedule's preconditions, and generates the order.
Result<Schedule> Generate(std::string_view name, Problem& problem);

}  // namespace ppsim

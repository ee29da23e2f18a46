// Several schedules on one problem, side by side, each measured figure
// beside its published closed form: what `ppsim compare` prints and what
// Python's ppsim.compare() returns.
#pragma once

#include <string>
#include <vector>

#include "ppsim/closed_forms.h"
#include "ppsim/error.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/problem.h"
#include "ppsim/run.h"

namespace ppsim::jobs {

struct ComparedRun {
  Run run;                // named after its schedule (Timeline::schedule.name)
  Prediction prediction;  // the closed forms that apply to this run (none with a setting)
  std::string setting;    // "" or the problem key set for this run only: "recompute=full"
};

// Simulates and measures each named schedule on `problem`, in order. The
// problem's v applies to the schedules that take any v; the others (zbv,
// dualpipe, ...) run with their own. All runs share one model and one tick
// (ScaleRuns, cost_scale.h). Errors are Simulate()'s.
Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const Problem& problem);
// The same, and then each schedule again with each of `settings` (a problem
// key and its value, "recompute=full", set through SetProblemKey): the plain
// runs first, then each setting's, in order. A run with a setting has no
// closed forms beside it. Errors name the setting (kInvalidValue /
// kUnknownName as SetProblemKey's; kUsage when it has no '=').
Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const Problem& problem,
                                         const std::vector<std::string>& settings);

// The same from the problem as the user stated it (the CLI's flags, Python's
// keywords): io::ToProblem's checks and errors, a model and a Megatron
// layout included (--model, --layout; every schedule must run the layout's
// loop placement: io::LayoutRunsSchedule), then Compare above.
Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const io::ProblemOptions& options,
                                         const std::vector<std::string>& settings);

// The table `ppsim compare` prints. With bytes (a memory model), it adds each
// run's peak bytes per device and, per run after the first, what it pays in
// makespan and saves in bytes against the first (comparison_bytes.h). REQUIRES: at least one run.
std::string ComparisonText(const std::vector<ComparedRun>& runs, int columns = 80);

// {"runs": [...], "makespans_equal": bool, "bubbles_equal": bool,
// "cost_basis": "stage"|"chunk", "ticks_per_unit": k} — the
// `ppsim compare --json` object, one line without its newline. With bytes,
// each run adds "peak_bytes_per_device".
std::string ComparisonJson(const std::vector<ComparedRun>& runs);

}  // namespace ppsim::jobs

// ppsim search -P p -M m [--chunks v --placement loop|vshape] --cost F=..,B=..,W=.. --comm c
//              --max-activations N [--time-limit S] [--seed S] [--json | --export FORMAT] [-o FILE]
// The shortest schedule within a per-device memory budget, and a lower bound.
#include <cmath>
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/atomic_file.h"
#include "ppsim/memory_bytes_json.h"
#include "ppsim/metrics.h"
#include "ppsim/render/terminal_chart.h"
#include "ppsim/search.h"
#include "ppsim/timeline_json.h"
#include "problem_options.h"
#include "ppsim/schedule_file.h"

namespace ppsim::cli {
namespace {

struct SearchCliOptions {
  ProblemOptions problem;
  std::string placement = "loop";
  std::string max_activations;  // "" = not given
  std::string time_limit = "2";
  std::string seed = "1";
  bool json = false;
  std::string export_format;
  std::string output = "-";
  bool chunks_given = false;
};

constexpr Tick kChartTicks = 160;  // wider charts are not printed in text form

Result<SearchOptions> ToSearchOptions(const SearchCliOptions& o) {
  SearchOptions s;
  char* end = nullptr;
  s.time_limit_seconds = std::strtod(o.time_limit.c_str(), &end);
  if (o.time_limit.empty() || *end != '\0' || !std::isfinite(s.time_limit_seconds))
    return Fail(ErrorCode::kInvalidValue, "--time-limit: '" + o.time_limit + "' is not a number of seconds");
  if (s.time_limit_seconds <= 0)
    return Fail(ErrorCode::kInvalidValue, "--time-limit must be > 0 seconds, got " + o.time_limit);
  int seed = 0;
  Error e = ParseIntFlag("--seed", o.seed, 0, 2147483647, seed);
  if (e.code != ErrorCode::kOk) return e;
  s.seed = static_cast<std::uint64_t>(seed);
  if (!o.max_activations.empty()) {
    int n = 0;
    e = ParseIntFlag("--max-activations", o.max_activations, -2147483647, 2147483647, n);
    if (e.code != ErrorCode::kOk) return e;
    if (n < 1)
      return Fail(ErrorCode::kPrecondition, "--max-activations " + o.max_activations +
                                                " is below what any schedule needs: the minimum that works is 1 "
                                                "(a device holds all its chunks of one microbatch at once)");
    s.max_activations = n;
  }
  return s;
}

Result<Problem> ToSearchProblem(const SearchCliOptions& o) {
  if (o.placement != "loop" && o.placement != "vshape")
    return Fail(ErrorCode::kInvalidValue, "--placement: '" + o.placement + "' is not one of loop, vshape");
  ProblemOptions po = o.problem;
  if (o.placement == "vshape" && !o.chunks_given) po.chunks = "2";
  Result<Problem> p = ToProblem(po);
  if (!p) return p;
  p->placement = o.placement == "vshape" ? Placement::kVShape : Placement::kLoop;
  return p;
}

std::string Percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * x);
  return buf;
}

double Gap(const SearchResult& r) {
  const Tick m = r.timeline.makespan;
  return m == 0 ? 0 : static_cast<double>(m - r.lower_bound) / static_cast<double>(m);
}

std::string SummaryLine(const SearchResult& r) {
  const Problem& p = r.timeline.problem;
  std::string s = "search  P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" + std::to_string(p.v) +
                  " comm=" + std::to_string(p.comm) + "  budget " + std::to_string(r.budget) + " " + r.budget_unit +
                  "/device: makespan " + std::to_string(r.timeline.makespan) + "  lower bound " +
                  std::to_string(r.lower_bound) + "  gap " + Percent(Gap(r)) +
                  (r.optimal ? "  optimal" : "  not proven optimal") + "  (found by " + r.found_by + "; " +
                  std::to_string(r.evaluated) + " candidates in ";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", r.seconds);
  s += buf;
  const SearchSeed* seed = r.BestFittingSeed();
  s += seed != nullptr ? "; best fixed schedule that fits: " + seed->name + " " + std::to_string(seed->makespan)
                       : "; no fixed schedule fits";
  return s + ")\n";
}

nlohmann::json ResultJson(const SearchResult& r, const Metrics& metrics) {
  nlohmann::json j = SimulationJson(r.timeline, metrics);
  j["lower_bound"] = r.lower_bound;
  j["gap"] = Gap(r);
  j["optimal"] = r.optimal;
  j["found_by"] = r.found_by;
  j["evaluated"] = r.evaluated;
  j["seconds"] = r.seconds;
  j["budget"] = {{"unit", r.budget_unit}, {"per_device", r.budget}, {"peak_per_device", r.peak_per_device}};
  nlohmann::json seeds = nlohmann::json::array();
  for (const SearchSeed& s : r.seeds)
    seeds.push_back({{"schedule", s.name}, {"makespan", s.makespan}, {"fits", s.fits}, {"peak", s.peak}});
  j["fixed_schedules"] = seeds;
  if (r.zb_auto > 0) j["zb_auto_makespan"] = r.zb_auto;
  return j;
}

int Run(const SearchCliOptions& o) {
  Result<SearchOptions> options = ToSearchOptions(o);
  if (!options) return Report(options.error());
  Result<Problem> problem = ToSearchProblem(o);
  if (!problem) return Report(problem.error());
  options->progress = [](const SearchProgress& p) {
    std::fprintf(stderr, "search: %.1f s  %lld candidates  best %lld  bound %lld  (%s)\n", p.seconds,
                 static_cast<long long>(p.evaluated), static_cast<long long>(p.best),
                 static_cast<long long>(p.lower_bound), p.phase.c_str());
  };
  Result<SearchResult> r = Search(*problem, *options);
  if (!r) return Report(r.error());
  const Metrics metrics = Measure(r->timeline);
  std::string out;
  if (!o.export_format.empty()) {
    Result<std::string> exported = ExportSchedule(o.export_format, r->timeline);
    if (!exported) return Report(exported.error());
    out = std::move(*exported);
  } else if (o.json) {
    nlohmann::json j = ResultJson(*r, metrics);
    if (r->timeline.problem.memory.enabled()) AddMemoryBytesJson(r->timeline, MeasureMemoryBytes(r->timeline), j);
    out = j.dump() + "\n";
  } else {
    if (r->timeline.makespan <= kChartTicks) out = TerminalChart(r->timeline, metrics);
    out += SummaryLine(*r);
  }
  Error e = WriteFileAtomically(o.output, out);
  if (e.code != ErrorCode::kOk) return Report(e);
  return 0;
}

const CommandRegistrar registrar(35, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SearchCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "search", "find the shortest schedule within a per-device memory budget, with a lower bound (docs/search.md)");
  AddProblemOptions(*cmd, o->problem);
  cmd->add_option("--placement", o->placement, "loop (default) or vshape (2 chunks per device)");
  cmd->add_option("--max-activations", o->max_activations,
                  "budget per device in stage-sets (a chunk's set counts 1/v), held from the start of F to the end "
                  "of W; or give --memory-limit BYTES with --cost-file");
  cmd->add_option("--time-limit", o->time_limit, "seconds the search may take (default 2)");
  cmd->add_option("--seed", o->seed, "seed of the search's random choices (default 1)");
  CLI::Option* json = cmd->add_flag("--json", o->json, "print simulate's JSON plus lower_bound, gap, optimal, ...");
  cmd->add_option("--export", o->export_format, "write the schedule found instead: pytorch-csv, text")
      ->check(CLI::IsMember({"pytorch-csv", "text"}))
      ->excludes(json);
  cmd->add_option("-o,--output", o->output, "write to this file (atomically) instead of stdout");
  cmd->callback([o, exit_code, cmd] {
    o->chunks_given = cmd->count("--chunks") > 0;
    *exit_code = Run(*o);
  });
});

}  // namespace
}  // namespace ppsim::cli

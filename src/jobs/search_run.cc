#include "ppsim/jobs/search_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "json_dump.h"
#include "memory_bytes_json.h"
#include "ppsim/io/simulation_json.h"
#include "simulation_tree.h"

namespace ppsim::jobs {
namespace {

Result<SearchOptions> ToSearchOptions(const SearchRequest& r) {
  SearchOptions s;
  char* end = nullptr;
  s.time_limit_seconds = std::strtod(r.time_limit.c_str(), &end);
  if (r.time_limit.empty() || *end != '\0' || !std::isfinite(s.time_limit_seconds))
    return Error::Field(ErrorCode::kInvalidValue, "time_limit", ": '" + r.time_limit + "' is not a number of seconds");
  if (s.time_limit_seconds <= 0)
    return Error::Field(ErrorCode::kInvalidValue, "time_limit", " must be > 0 seconds, got " + r.time_limit);
  int seed = 0;
  Error e = io::ParseIntField("seed", r.seed, 0, 2147483647, seed);
  if (!e.ok()) return e;
  s.seed = static_cast<std::uint64_t>(seed);
  if (!r.max_activations.empty()) {
    int n = 0;
    e = io::ParseIntField("max_activations", r.max_activations, -2147483647, 2147483647, n);
    if (!e.ok()) return e;
    if (n < 1)
      return Error::Field(ErrorCode::kPrecondition, "max_activations",
                          " " + r.max_activations +
                              " is below what any schedule needs: the minimum that works is 1 "
                              "(a device holds all its chunks of one microbatch at once)");
    s.max_activations = n;
  }
  return s;
}

Result<Problem> ToSearchProblem(const SearchRequest& r) {
  if (r.placement != "loop" && r.placement != "vshape")
    return Error::Field(ErrorCode::kInvalidValue, "placement", ": '" + r.placement + "' is not one of loop, vshape");
  if (Error e = io::CheckLinkHasComms(r.problem); !e.ok()) return e;
  io::ProblemOptions po = r.problem;
  if (r.placement == "vshape" && !r.chunks_given) po.chunks = "2";
  Result<Problem> p = io::ToProblem(po);
  if (!p) return p;
  p->placement = r.placement == "vshape" ? Placement::kVShape : Placement::kLoop;
  return p;
}

std::string Percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * x);
  return buf;
}

// simulate --json's "comms" object, as a tree.
nlohmann::json CommsJson(const Problem& p) {
  std::string text;
  io::JsonOut out([&text](std::string_view bytes) {
    text += bytes;
    return true;
  });
  io::WriteCommsJson(out, p);
  out.Finish();
  return nlohmann::json::parse(text);
}

}  // namespace

Result<SearchRun> RunSearch(const SearchRequest& request, std::function<void(const SearchProgress&)> progress) {
  Result<SearchOptions> options = ToSearchOptions(request);
  if (!options) return options.error();
  Result<Problem> problem = ToSearchProblem(request);
  if (!problem) return problem.error();
  options->progress = std::move(progress);
  Result<SearchResult> r = Search(*problem, *options);
  if (!r) return r.error();
  std::string name = r->timeline.schedule.name;  // "search"
  Run run = Measured(std::move(name), std::move(r->timeline));
  return SearchRun{std::move(run), std::move(*r)};
}

double SearchGap(const SearchRun& run) {
  const Tick m = run.run.timeline.makespan;
  return m == 0 ? 0 : static_cast<double>(m - run.result.lower_bound) / static_cast<double>(m);
}

// "comm=1" (the latency model), or the comm model's keys as the user gives
// them, in units: "comms=pytorch link.latency=1", the other link keys when
// not their defaults.
std::string CommText(const Problem& p) {
  if (!p.comms.enabled()) return "comm=" + std::to_string(p.comm);
  const CommModel& c = p.comms;
  const std::int64_t k = std::max<std::int64_t>(1, c.time_scale);
  std::string s = "comms=" + std::string(CommOrderName(c.order)) + " link.latency=" + std::to_string(c.latency / k);
  if (c.bandwidth > 0) s += " link.bandwidth=" + std::to_string(c.bandwidth);
  if (!c.transfer_bytes.empty()) {
    s += " link.bytes=";
    for (size_t i = 0; i < c.transfer_bytes.size(); ++i) s += (i > 0 ? ":" : "") + std::to_string(c.transfer_bytes[i]);
  }
  if (c.concurrency != 1) s += " link.concurrency=" + std::to_string(c.concurrency);
  if (c.send_release == SendRelease::kCompletion) s += " link.send_release=completion";
  return s;
}

std::string SearchSummaryLine(const SearchRun& run) {
  const SearchResult& r = run.result;
  const Problem& p = run.run.timeline.problem;
  std::string s = "search  P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" + std::to_string(p.v) + " " +
                  CommText(p) + "\nbudget " + std::to_string(r.budget) + " " + r.budget_unit + "/device: makespan " +
                  std::to_string(run.run.timeline.makespan) + "  lower bound " + std::to_string(r.lower_bound) +
                  "  gap " + Percent(SearchGap(run)) + (r.optimal ? "  optimal" : "  not proven optimal") +
                  "  (found by " + r.found_by + "; " + std::to_string(r.evaluated) + " candidates in ";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", r.seconds);
  s += buf;
  const SearchSeed* seed = r.BestFittingSeed();
  s += seed != nullptr ? "; best fixed schedule that fits: " + seed->name + " " + std::to_string(seed->makespan)
                       : "; no fixed schedule fits";
  if (!r.validated)
    s += p.comms.enabled()     ? "; not validated (comm ops: validate checks the latency model)"
         : p.comm_hops.empty() ? "; not validated within the time limit"
                               : "; not validated (per-hop latencies)";
  if (r.seeds_not_tried > 0)
    s += "; " + std::to_string(r.seeds_not_tried) + " fixed schedule" + (r.seeds_not_tried == 1 ? "" : "s") +
         " not tried within the time limit";
  return s + ")\n";
}

std::string SearchResultJson(const SearchRun& run) {
  const SearchResult& r = run.result;
  const Timeline& t = run.run.timeline;
  nlohmann::json j = io::SimulationJson(t, run.run.metrics);
  j["lower_bound"] = r.lower_bound;
  j["gap"] = SearchGap(run);
  j["optimal"] = r.optimal;
  j["found_by"] = r.found_by;
  j["validated"] = r.validated;
  j["evaluated"] = r.evaluated;
  j["seconds"] = r.seconds;
  j["budget"] = {{"unit", r.budget_unit}, {"per_device", r.budget}, {"peak_per_device", r.peak_per_device}};
  nlohmann::json seeds = nlohmann::json::array();
  for (const SearchSeed& s : r.seeds)
    seeds.push_back({{"schedule", s.name}, {"makespan", s.makespan}, {"fits", s.fits}, {"peak", s.peak}});
  j["fixed_schedules"] = seeds;
  j["fixed_schedules_not_tried"] = r.seeds_not_tried;
  if (r.zb_auto > 0) j["zb_auto_makespan"] = r.zb_auto;
  if (t.problem.comms.enabled()) j["comms"] = CommsJson(t.problem);
  if (t.problem.memory.enabled()) io::AddMemoryBytesJson(t, MeasureMemoryBytes(t), j);
  return io::DumpJson(j);
}

}  // namespace ppsim::jobs

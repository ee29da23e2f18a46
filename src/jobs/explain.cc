// Explain(): the traces read (one per rank), the pipeline they ran, its
// clocks and costs fitted, the three runs placed, the causes ranked.
#include "ppsim/jobs/explain.h"

#include <algorithm>
#include <filesystem>

#include "explain_internal.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/megatron_log.h"

namespace ppsim::jobs {
namespace {

bool IsTraceName(const std::string& name) {
  auto ends = [&](const char* s) {
    const std::string suffix(s);
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".json") || ends(".json.gz");
}

// Files and folders to (path, from a folder) pairs, a folder's in name order.
Result<std::vector<std::pair<std::string, bool>>> ListFiles(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, bool>> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) {
      files.emplace_back(p, false);
      continue;
    }
    std::vector<std::string> inside;
    for (const auto& entry : std::filesystem::directory_iterator(p, ec))
      if (IsTraceName(entry.path().filename().string())) inside.push_back(entry.path().string());
    if (ec) return Fail(ErrorCode::kIo, io::DisplayPath(p) + ": cannot list: " + ec.message());
    std::sort(inside.begin(), inside.end());
    if (inside.empty()) return Fail(ErrorCode::kIo, io::DisplayPath(p) + ": no *.json or *.json.gz file in it");
    for (auto& f : inside) files.emplace_back(std::move(f), true);
  }
  if (files.empty()) return Fail(ErrorCode::kUsage, "no trace given");
  return files;
}

// The traces indexed by rank: every rank 0..n-1 exactly once.
Result<std::vector<io::KinetoTrace>> ReadTraces(const std::vector<std::string>& paths, const ExplainOptions& o) {
  Result<std::vector<std::pair<std::string, bool>>> files = ListFiles(paths);
  if (!files) return files.error();
  std::vector<io::KinetoTrace> read;
  for (const auto& [file, in_folder] : *files) {
    io::KinetoReadOptions ro;
    ro.step = o.step;
    ro.skip_non_trace = true;
    ro.progress = o.progress;
    Result<io::KinetoTrace> t = io::ReadKinetoTrace(file, ro);
    if (!t) return t.error();
    if (t->rank >= 0) {
      read.push_back(std::move(*t));
      continue;
    }
    if (in_folder) continue;  // a folder's JSON that is no trace (a truth.json beside the traces)
    // A file named on the command line without traceEvents: a ppsim timeline, all ranks in one.
    Result<std::vector<io::KinetoTrace>> timeline = explain::TimelineAsTraces(file);
    if (!timeline) {
      if (timeline.error().code != ErrorCode::kParse) return timeline.error();
      std::string why = timeline.error().message;  // "FILE: what" or "FILE:3:7: what"
      if (why.starts_with(io::DisplayPath(file) + ": ")) why = why.substr(io::DisplayPath(file).size() + 2);
      return Fail(ErrorCode::kParse,
                  io::DisplayPath(file) + ": no traceEvents: not a profiler trace, nor a ppsim timeline (" + why +
                                         "), nor a Megatron-LM timers log (it is JSON)");
    }
    if (files->size() != 1)
      return Fail(ErrorCode::kUsage, io::DisplayPath(file) + " is a ppsim timeline, which holds every rank: give it "
                                         "alone, not with other files");
    return std::move(*timeline);
  }
  if (read.empty()) return Fail(ErrorCode::kParse, "no profiler trace among the files given");
  const int n = static_cast<int>(read.size());
  std::vector<io::KinetoTrace> by_rank(n);
  std::vector<bool> seen(n, false);
  for (auto& t : read) {
    if (t.rank >= n)
      return Fail(ErrorCode::kInvalidValue, io::DisplayPath(t.file) + ": rank " + std::to_string(t.rank) + " but " +
                                                std::to_string(n) + " traces given (ranks 0.." + std::to_string(n - 1) +
                                                " expected; a rank is missing)");
    if (seen[t.rank])
      return Fail(ErrorCode::kInvalidValue, io::DisplayPath(by_rank[t.rank].file) + " and " + io::DisplayPath(t.file) +
                                                " both claim rank " + std::to_string(t.rank));
    seen[t.rank] = true;
    by_rank[t.rank] = std::move(t);
  }
  return by_rank;
}

}  // namespace

Result<ExplainReport> Explain(const std::vector<std::string>& paths, const ExplainOptions& options) {
  for (const std::string& p : paths) {  // text, not JSON: a Megatron-LM timers log, every rank in one file
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec) || !io::LooksLikeTextLog(p)) continue;
    if (paths.size() != 1)
      return Fail(ErrorCode::kUsage, io::DisplayPath(p) + " is a text log (Megatron-LM's timers), which holds every "
                                                          "rank: give it alone, not with other files");
    return explain::ExplainMegatronLog(p, options);
  }
  Result<std::vector<io::KinetoTrace>> traces = ReadTraces(paths, options);
  if (!traces) return traces.error();
  if ((*traces)[0].actions.empty()) {  // part ranges, no PP: ones (DeepSeek's layout)
    if (traces->size() != 1)
      return Fail(ErrorCode::kUsage, "traces without PP: ranges are read one at a time (" +
                                         io::DisplayPath((*traces)[0].file) + " has part ranges only)");
    ExplainReport r;
    r.files.push_back((*traces)[0].file);
    r.step = (*traces)[0].step;
    explain::MeasureParts((*traces)[0], r);
    return r;
  }
  Result<explain::Pipeline> built = explain::BuildPipeline(*traces);
  if (!built) return built.error();
  explain::Pipeline& pl = *built;
  ExplainReport r;
  for (const auto& t : *traces) r.files.push_back(t.file);
  r.step = (*traces)[0].step;
  r.P = pl.problem.P;
  r.M = pl.problem.M;
  r.v = pl.problem.v;
  r.split = pl.split;
  r.placement = PlacementName(pl.problem.placement);
  r.stage_to_rank = pl.stage_to_rank;
  for (const auto& rank : pl.ops) {
    r.orders.emplace_back();
    for (const auto& op : rank) r.orders.back().push_back(op.action);
  }
  r.schedule = explain::MatchRegistry(pl);
  explain::FitClock(pl, r);
  explain::FitCosts(pl, r);
  r.measured = explain::MeasuredFigures(pl);
  Result<RunFigures> replay = explain::PlaceRun(pl, explain::MeasuredDurations(pl), r.hops);
  if (!replay) return replay.error();
  r.replay = *replay;
  Result<explain::Expected> expected = explain::LoadExpected(pl, r, options);
  if (!expected) return expected.error();
  Timeline ideal;
  if (Error e = explain::FindCauses(pl, *expected, r, &ideal); !e.ok()) return e;
  explain::KeepRuns(pl, std::move(ideal), r);
  return r;
}

}  // namespace ppsim::jobs

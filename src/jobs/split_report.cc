#include "ppsim/jobs/split_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/io/model_file.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/jobs/search_run.h"
#include "ppsim/jobs/layout_report.h"
#include "ppsim/layout.h"
#include "ppsim/layout_flags.h"
#include "ppsim/metrics.h"

namespace ppsim::jobs {
namespace {

using json = nlohmann::ordered_json;

int CountKind(const Model& m, char kind) {
  return static_cast<int>(
      std::count_if(m.layers.begin(), m.layers.end(), [kind](const ModelLayer& l) { return l.kind == kind; }));
}

Result<SplitSearchOptions> ToOptions(const SplitRequest& r) {
  SplitSearchOptions o;
  if (r.P.empty()) return Error::Field(ErrorCode::kUsage, "P", " is required");
  if (r.M.empty()) return Error::Field(ErrorCode::kUsage, "M", " is required");
  if (Error e = io::ParseIntField("P", r.P, 1, kMaxDevices, o.P); !e.ok()) return e;
  if (Error e = io::ParseIntField("M", r.M, 1, kMaxMicrobatches, o.M); !e.ok()) return e;
  int comm = 0;
  if (Error e = io::ParseIntField("comm", r.comm, 0, 1 << 30, comm); !e.ok()) return e;
  o.comm = comm;
  if (r.memory_limit.empty())
    return Error::Field(ErrorCode::kUsage, "memory_limit",
                        " is required with a model: the budget in bytes per device the split must fit (e.g. 80GiB)");
  Result<std::int64_t> limit = ParseBytes("memory_limit", r.memory_limit);
  if (!limit) return limit.error();
  o.memory_limit = *limit;
  if (!r.placement.empty() && r.placement != "loop" && r.placement != "vshape")
    return Error::Field(ErrorCode::kInvalidValue, "placement", ": '" + r.placement + "' is not one of loop, vshape");
  if (!r.chunks.empty()) {
    int v = 0;
    if (Error e = io::ParseIntField("chunks", r.chunks, 1, kMaxChunks, v); !e.ok()) return e;
    o.chunks = {v};
  }
  if (r.placement == "loop") o.vshape = false;
  if (r.placement == "vshape") {
    if (!r.chunks.empty() && o.chunks[0] != 2)
      return Error::Field(ErrorCode::kInvalidValue, "chunks", ": the V placement runs 2 chunks per device");
    o.chunks.clear();
  }
  char* end = nullptr;
  o.time_limit_seconds = std::strtod(r.time_limit.c_str(), &end);
  if (r.time_limit.empty() || *end != '\0' || !(o.time_limit_seconds > 0) || o.time_limit_seconds > 1e6)
    return Error::Field(ErrorCode::kInvalidValue, "time_limit",
                        ": '" + r.time_limit + "' is not a number of seconds > 0");
  int seed = 0;
  if (Error e = io::ParseIntField("seed", r.seed, 0, 2147483647, seed); !e.ok()) return e;
  o.seed = static_cast<std::uint64_t>(seed);
  return o;
}

std::string LayoutOf(const Model& m, const ModelSplit& s) {
  if (s.placement != Placement::kLoop) return "";
  return WriteLayoutString(SplitStageLetters(m, s));
}

SplitRow MakeRow(const Model& m, const std::string& name, const ModelSplit& split, const SplitSearchOptions& o) {
  SplitRow row{name, split, LayoutOf(m, split), false, 0, 0, "", 0};
  Problem p;
  p.P = o.P;
  p.M = o.M;
  p.memory.limit = o.memory_limit;
  if (!ApplySplit(m, split, p).ok()) return row;
  row.minimum_bytes = MinimumBudget(p, true);
  Result<SearchResult> r = SearchOneSplit(m, split, o);
  if (!r) return row;
  row.fits = true;
  row.makespan = r->timeline.makespan;
  row.found_by = r->found_by;
  for (std::int64_t b : r->peak_per_device) row.peak_bytes = std::max(row.peak_bytes, b);
  return row;
}

// Each rank's work (F + B + W over its stages) of a loop split.
Tick HeaviestRank(const Model& m, const ModelSplit& split, int P) {
  Problem p;
  p.P = P;
  if (!ApplySplit(m, split, p).ok()) return kMaxWork;
  std::vector<Tick> work(P, 0);
  for (int s = 0; s < p.stages(); ++s) work[p.DeviceOf(s)] += p.costs.f[s] + p.costs.b[s] + p.costs.w[s];
  return *std::max_element(work.begin(), work.end());
}

// Megatron's split flags at v = 1: the default even split, both
// account-for flags, and the first/last-num-layers pair (or one of them)
// that leaves the heaviest rank least work — what a user tuning them by
// hand would settle on.
std::vector<std::pair<std::string, ModelSplit>> MegatronSplits(const Model& m, int P) {
  std::vector<std::pair<std::string, ModelSplit>> out;
  MegatronSplitFlags f;
  f.num_layers = CountKind(m, 't');
  f.P = P;
  f.mtp_layers = CountKind(m, 'm');
  auto add = [&](const std::string& name, const MegatronSplitFlags& flags) {
    Result<std::vector<int>> c = MegatronDecoderCounts(flags);
    if (c) out.push_back({name, ModelSplit{Placement::kLoop, 1, *c}});
    return c.ok();
  };
  if (!add("megatron even (--num-layers / P)", f)) {  // Megatron needs P | num_layers; the nearest even split
    std::vector<int> even(static_cast<size_t>(P), f.num_layers / P);
    for (int i = 0; i < f.num_layers % P; ++i) ++even[P == 1 ? 0 : 1 + i % (P - 1)];
    out.push_back({"even (" + std::to_string(f.num_layers / P) + " or " + std::to_string(f.num_layers / P + 1) +
                       " per rank)",
                   ModelSplit{Placement::kLoop, 1, even}});
  }
  MegatronSplitFlags both = f;
  both.account_for_embedding = both.account_for_loss = true;
  add("megatron --account-for-embedding/loss-in-pipeline-split", both);
  std::pair<std::string, ModelSplit> best;
  Tick best_work = kMaxWork;
  for (int a = 0; a <= f.num_layers; ++a)
    for (int b = 0; b <= f.num_layers; ++b) {
      if (a == 0 && b == 0) continue;
      MegatronSplitFlags g = f;
      if (a > 0) g.first_layers = a;
      if (b > 0) g.last_layers = b;
      Result<std::vector<int>> c = MegatronDecoderCounts(g);
      if (!c) continue;
      const ModelSplit s{Placement::kLoop, 1, *c};
      const Tick w = HeaviestRank(m, s, P);
      if (w >= best_work) continue;
      best_work = w;
      std::string name = "megatron";
      if (a > 0) name += " --decoder-first-pipeline-num-layers " + std::to_string(a);
      if (b > 0) name += " --decoder-last-pipeline-num-layers " + std::to_string(b);
      best = {name, s};
    }
  if (best_work < kMaxWork) out.push_back(best);
  return out;
}

// torchtitan's configuration for the split, as its config registry sets it
// (torchtitan @ b5bcd76c, torchtitan_recipes/tests/features.py: Python,
// `config.parallelism.<field> = ...`; TOML job files went in #2386). With
// a CSV torchtitan runs _PipelineScheduleRuntime whatever the schedule's
// name, which must still be one get_schedule_class knows: its own CSV test
// names PipelineScheduleMulti.
std::string Torchtitan(const Model& m, const ModelSplit& s, int P, int M) {
  Result<std::vector<std::vector<std::string>>> parts = TorchtitanModules(SplitAsLayout(m, s, P));
  if (!parts) return "none: " + parts.error().Text();
  std::string lists;
  for (size_t i = 0; i < parts->size(); ++i) {
    lists += i ? ",\n  [" : "[\n  [";
    for (size_t k = 0; k < (*parts)[i].size(); ++k) lists += (k ? ", \"" : "\"") + (*parts)[i][k] + "\"";
    lists += "]";
  }
  lists += "\n]";
  const std::string set = "config.parallelism.";
  std::string out = set + "pipeline_parallel_degree = " + std::to_string(P) + "\n";
  if (s.placement == Placement::kVShape)
    out += set + "pipeline_parallel_schedule = \"ZBVZeroBubble\"  # places the lists V-shaped; its own order, not the CSV's\n";
  else
    out += set + "pipeline_parallel_schedule = \"PipelineScheduleMulti\"\n" + set +
           "pipeline_parallel_schedule_csv = \"schedule.csv\"  # the CSV below\n";
  out += set + "num_pp_microbatches = " + std::to_string(M) + "\n";
  out += set + "module_fqns_per_model_part = " + lists + "\n";
  return out;
}

// Megatron's layout string has one placement: its i-th stage on rank i mod
// P, data through the stages in string order (the loop). A V-shaped split
// (stage P on rank P - 1) has no string: one with the same layers per
// (rank, vp stage) would run them in loop order, another schedule.
std::string Megatron(const Model& m, const ModelSplit& s, int P) {
  if (s.placement != Placement::kLoop)
    return "none: a layout string runs its i-th stage on rank i mod P with data in string order (loop), and this "
           "split is V-shaped (stage " + std::to_string(P) + " on rank " + std::to_string(P - 1) +
           "), so no string places it; torchtitan's V schedule or the PyTorch CSV below run it";
  Result<LayoutReport> r = MakeLayoutReport(LayoutOf(m, s), {.P = P});
  if (!r) return "none: " + r.error().Text();
  return r->megatron_flags;
}

std::string Counts(const std::vector<int>& c) {
  std::string out;
  for (int x : c) out += (out.empty() ? "" : " ") + std::to_string(x);
  return out;
}

std::string Percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * x);
  return buf;
}

std::string Text(const SplitReport& r, const SplitSearchOptions& o) {
  const SplitSearchResult& s = r.result;
  const Tick ms = s.order.timeline.makespan;
  std::string t = "split search  P=" + std::to_string(o.P) + " M=" + std::to_string(o.M) +
                  " comm=" + std::to_string(o.comm) + "  memory limit " + std::to_string(o.memory_limit) +
                  " bytes/device\n";
  t += "found: " + SplitFamilyName(s.split) + ", decoder layers per stage " + Counts(s.split.decoder) +
       ", order found by " + s.order.found_by + "\n";
  t += "makespan " + std::to_string(ms) + "  lower bound " + std::to_string(s.lower_bound) + "  gap " +
       Percent(ms == 0 ? 0 : static_cast<double>(ms - s.lower_bound) / static_cast<double>(ms)) +
       (s.optimal ? "  proven optimal" : "  not proven optimal") + "\n";
  t += "splits: " + std::to_string(s.splits_considered) + " considered, " + std::to_string(s.splits_searched) +
       " order-searched, " + std::to_string(s.splits_pruned) + " cut by their bound; " +
       std::to_string(s.evaluated) + " orders in ";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s.seconds);
  t += std::string(buf) + "\nexact: " + s.exactness + "\n\n";
  t += "| split | decoder layers per stage | makespan | vs found | fullest device, bytes |\n";
  t += "| --- | --- | --- | --- | --- |\n";
  for (const SplitRow& row : r.rows) {
    const std::string vs = !row.fits ? "does not fit"
                                     : (row.makespan == ms ? "=" : "+" + std::to_string(row.makespan - ms));
    const std::string layout = !row.layout.empty()                        ? " `" + row.layout + "`"
                               : row.split.placement == Placement::kLoop ? ""
                                                                         : ", no layout string (V placement)";
    t += "| " + row.name + layout + " | " + Counts(row.split.decoder) +
         " | " + (row.fits ? std::to_string(row.makespan) : "-") + " | " + vs + " | " +
         std::to_string(row.fits ? row.peak_bytes : row.minimum_bytes) + (row.fits ? "" : " needed") + " |\n";
  }
  t += "\nmegatron: " + r.megatron + "\n\ntorchtitan:\n" + r.torchtitan + "\npytorch csv (schedule.csv):\n" +
       r.pytorch_csv;
  return t;
}

std::string Json(const SplitReport& r, const SplitSearchOptions& o) {
  const SplitSearchResult& s = r.result;
  json j;
  j["P"] = o.P;
  j["M"] = o.M;
  j["comm"] = o.comm;
  j["memory_limit"] = o.memory_limit;
  j["placement"] = s.split.placement == Placement::kVShape ? "vshape" : "loop";
  j["v"] = s.split.v;
  j["decoder_layers_per_stage"] = s.split.decoder;
  j["makespan"] = s.order.timeline.makespan;
  j["lower_bound"] = s.lower_bound;
  j["optimal"] = s.optimal;
  j["found_by"] = s.order.found_by;
  j["exactness"] = s.exactness;
  j["splits_considered"] = s.splits_considered;
  j["splits_searched"] = s.splits_searched;
  j["splits_pruned"] = s.splits_pruned;
  json fams = json::array();
  for (const SplitFamily& f : s.families)
    fams.push_back({{"name", f.name}, {"splits", f.splits}, {"exhaustive", f.exhaustive}, {"bound", f.bound}});
  j["families"] = fams;
  json rows = json::array();
  for (const SplitRow& row : r.rows)
    rows.push_back({{"name", row.name},
                    {"layout", row.layout},
                    {"decoder_layers_per_stage", row.split.decoder},
                    {"fits", row.fits},
                    {"makespan", row.makespan},
                    {"peak_bytes", row.peak_bytes},
                    {"minimum_bytes", row.minimum_bytes}});
  j["compared"] = rows;
  j["megatron"] = r.megatron;
  j["torchtitan"] = r.torchtitan;
  j["pytorch_csv"] = r.pytorch_csv;
  return j.dump();
}

}  // namespace

Result<std::int64_t> ParseBytes(const std::string& field, const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  std::string unit = text.substr(digits);
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  const std::vector<std::pair<std::string, long double>> units = {
      {"", 1},        {"B", 1},        {"KiB", 1024.0L}, {"MiB", 1048576.0L}, {"GiB", 1073741824.0L},
      {"TiB", 1099511627776.0L}, {"KB", 1e3L}, {"MB", 1e6L}, {"GB", 1e9L}, {"TB", 1e12L}};
  long double scale = 0;
  for (const auto& [name, factor] : units)
    if (unit == name) scale = factor;
  if (digits == 0 || digits > 18 || scale == 0)
    return Error::Field(ErrorCode::kInvalidValue, field,
                        ": '" + text + "' is not a size in bytes (e.g. 85899345920, 80GiB, 80GB)");
  const long double v = std::stold(text.substr(0, digits)) * scale;
  if (v > static_cast<long double>(kMaxMemoryLimit))
    return Error::Field(ErrorCode::kTooLarge, field,
                        ": " + text + " exceeds the limit " + std::to_string(kMaxMemoryLimit) + " bytes");
  return static_cast<std::int64_t>(v);
}

Result<SplitReport> RunSplitSearch(const SplitRequest& request) {
  if (request.model.empty() && request.model_json.empty())
    return Error::Field(ErrorCode::kUsage, "model", " is required");
  Result<SplitSearchOptions> o = ToOptions(request);
  if (!o) return o.error();
  Result<Model> model = io::ReadModel(request.model, request.model_json);
  if (!model) return model.error();
  Result<SplitSearchResult> found = SearchSplits(*model, *o);
  if (!found) return found.error();
  SplitReport r;
  r.result = std::move(*found);
  const SplitSearchResult& s = r.result;
  SplitRow best{"found (" + SplitFamilyName(s.split) + ")", s.split, LayoutOf(*model, s.split), true, 0,
                s.order.timeline.makespan, s.order.found_by, 0};
  for (std::int64_t b : s.order.peak_per_device) best.peak_bytes = std::max(best.peak_bytes, b);
  r.rows.push_back(best);
  for (const auto& [name, split] : MegatronSplits(*model, o->P)) r.rows.push_back(MakeRow(*model, name, split, *o));
  r.megatron = Megatron(*model, s.split, o->P);
  r.torchtitan = Torchtitan(*model, s.split, o->P, o->M);
  Result<std::string> csv = io::ExportSchedule("pytorch-csv", s.order.timeline);
  r.pytorch_csv = csv ? *csv : "none: " + csv.error().Text() + "\n";
  r.text = Text(r, *o);
  r.json = Json(r, *o);
  return r;
}

}  // namespace ppsim::jobs

// ppsim search -P p -M m [--chunks v --placement loop|vshape] --cost F=..,B=..,W=.. --comm c
//              [--comms RULE --link-latency T ...] --max-activations N [--time-limit S] [--seed S]
//              [--json | --export FORMAT] [-o FILE]
// The shortest schedule within a per-device memory budget, and a lower bound
// (io's RunSearch, which Python's ppsim.search() calls too).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/jobs/search_run.h"
#include "ppsim/jobs/search_report.h"
#include "ppsim/jobs/split_report.h"
#include "problem_options.h"
#include "terminal.h"

namespace ppsim::cli {
namespace {

void PrintProgress(const SearchProgress& p) {
  std::fprintf(stderr, "search: %.1f s  %lld candidates  best %lld  bound %lld  (%s)\n", p.seconds,
               static_cast<long long>(p.evaluated), static_cast<long long>(p.best),
               static_cast<long long>(p.lower_bound), p.phase.c_str());
}

struct SearchCliOptions {
  jobs::SearchRequest request;
  std::string model;  // --model: the split search
  bool placement_given = false;
  bool json = false;
  std::string export_format;
  std::string output = "-";
};

// --model: the split, chunk count, placement and order (jobs::RunSplitSearch).
int RunSplit(const SearchCliOptions& o) {
  const io::ProblemOptions& p = o.request.problem;
  if (!p.comms.empty() || !io::FirstLinkKey(p).empty())
    return Report(Error::Field(ErrorCode::kUsage, p.comms.empty() ? io::FirstLinkKey(p) : "comms",
                               " with --model: the split search places with --comm's latency model only; drop it"));
  if (!p.cost.empty() || !p.cost_file.empty() || !o.request.max_activations.empty() || !p.layout.empty())
    return Report(Error::Field(ErrorCode::kUsage, "model",
                               " takes its costs and bytes from the model's layers, and the budget from "
                               "--memory-limit: drop --cost, --cost-file, --max-activations and --layout"));
  if (!o.export_format.empty() && o.export_format != "pytorch-csv")
    return Report(Error::Field(ErrorCode::kUsage, "export", " with --model: pytorch-csv only"));
  Result<jobs::SplitReport> r = jobs::RunSplitSearch({.model = o.model,
                                                      .model_json = "",
                                                      .P = p.P,
                                                      .M = p.M,
                                                      .comm = p.comm.empty() ? "0" : p.comm,
                                                      .memory_limit = p.memory_limit,
                                                      .placement = o.placement_given ? o.request.placement : "",
                                                      .chunks = o.request.chunks_given ? p.chunks : "",
                                                      .time_limit = o.request.time_limit,
                                                      .seed = o.request.seed});
  if (!r) return Report(r.error());
  const std::string out = !o.export_format.empty() ? r->pytorch_csv : o.json ? r->json + "\n" : r->text;
  if (Error e = io::WriteFileAtomically(o.output, out); !e.ok()) return Report(e);
  return 0;
}

int Run(const SearchCliOptions& o) {
  if (!o.model.empty()) return RunSplit(o);
  Result<jobs::SearchRun> run = jobs::RunSearch(o.request, &PrintProgress);
  if (!run) return Report(run.error());
  std::string out;
  if (!o.export_format.empty()) {
    Result<std::string> exported = io::ExportSchedule(o.export_format, run->run.timeline);
    if (!exported) return Report(exported.error());
    out = std::move(*exported);
  } else if (o.json) {
    out = jobs::SearchResultJson(*run) + "\n";
  } else {
    Result<std::string> report = jobs::SearchReportText(*run, TextOptionsFor(o.output, 0));
    if (!report) return Report(report.error());
    out = std::move(*report);
  }
  Error e = io::WriteFileAtomically(o.output, out);
  if (e.code != ErrorCode::kOk) return Report(e);
  return 0;
}

const CommandRegistrar search_registrar(35, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SearchCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "search", "find the shortest schedule within a per-device memory budget, with a lower bound (docs/search.md)");
  AddProblemOptions(*cmd, o->request.problem);
  cmd->add_option("--placement", o->request.placement, "loop (default) or vshape (2 chunks per device)");
  cmd->add_option("--model", o->model,
                  "a model file (docs/costs.md): search its split into stages, the chunk count and placement "
                  "with the order, within --memory-limit (80GiB) per device (docs/search.md)");
  cmd->add_option("--max-activations", o->request.max_activations,
                  "budget per device in stage-sets (a chunk's set counts 1/v), held from the start of F to the end "
                  "of W; or give --memory-limit BYTES with --cost-file");
  cmd->add_option("--time-limit", o->request.time_limit, "seconds the search may take (default 2)");
  cmd->add_option("--seed", o->request.seed, "seed of the search's random choices (default 1)");
  CLI::Option* json = cmd->add_flag("--json", o->json, "print simulate's JSON plus lower_bound, gap, optimal, ...");
  std::vector<std::string> exports;
  for (const io::ExportFormat& f : io::ExportFormats()) exports.push_back(f.name);
  cmd->add_option("--export", o->export_format, "write the schedule found instead: " + io::ExportFormatList())
      ->check(CLI::IsMember(exports))
      ->excludes(json);
  cmd->add_option("-o,--output", o->output, "write to this file (atomically) instead of stdout");
  cmd->callback([o, exit_code, cmd] {
    o->request.chunks_given = cmd->count("--chunks") > 0;
    o->placement_given = cmd->count("--placement") > 0;
    *exit_code = Run(*o);
  });
});

}  // namespace
}  // namespace ppsim::cli

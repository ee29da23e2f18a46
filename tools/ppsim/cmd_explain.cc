// ppsim explain TRACE... [--step N] [--expect COSTFILE | --equal-stages] [--json] [--export-costs FILE] [-o FILE ...]
//
// -o x.svg|.png|.html draws the measured run above its ideal
// (explain_picture.h) in ppsim-render, to which `ppsim` hands the command;
// any other -o gets the report.
#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/jobs/explain.h"
#include "ppsim/render/output_format.h"

namespace ppsim::cli {
namespace {

struct ExplainCliOptions {
  std::vector<std::string> traces;
  jobs::ExplainOptions options;
  bool json = false;
  std::string export_costs;
  std::vector<std::string> outputs;
};

// A huge trace says how far it got, one line per GiB, on stderr.
void Progress(const std::string& file, std::int64_t bytes) {
  std::fprintf(stderr, "ppsim: reading %s: %lld GiB\n", io::DisplayPath(file).c_str(),
               static_cast<long long>(bytes >> 30));
}

int Run(ExplainCliOptions& o) {
  std::vector<std::string> pictures, reports;
  for (const std::string& out : o.outputs) (jobs::IsExplainPicture(out) ? pictures : reports).push_back(out);
  if (!pictures.empty() && ExplainPictures() == nullptr) return HandToRenderBinary();
  if (reports.empty()) reports.push_back("-");  // pictures alone: the report on stdout too
  o.options.progress = &Progress;
  Result<jobs::ExplainReport> report = jobs::Explain(o.traces, o.options);
  if (!report) return Report(report.error());
  if (!pictures.empty()) {
    if (Error e = ExplainPictures()(*report, pictures); !e.ok()) return Report(e);
  }
  if (!o.export_costs.empty()) {
    Result<std::string> costs = jobs::ExplainCostFile(*report);
    if (!costs) return Report(costs.error());
    if (Error e = io::WriteFileAtomically(o.export_costs, *costs); !e.ok()) return Report(e);
    std::fprintf(stderr, "ppsim: wrote %s\n", io::DisplayPath(o.export_costs).c_str());
  }
  const std::string out = o.json ? jobs::ExplainJson(*report) : jobs::ExplainText(*report);
  for (const std::string& path : reports)
    if (Error e = io::WriteFileAtomically(path, out); !e.ok()) return Report(e);
  for (const std::string& path : pictures) std::fprintf(stderr, "ppsim: wrote %s\n", io::DisplayPath(path).c_str());
  return 0;
}

const CommandRegistrar explain_registrar(37, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ExplainCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explain", "read the PyTorch profiler traces of a pipeline-parallel training step (one per rank) and say "
                 "where its time went (docs/explain.md)");
  cmd->add_option("traces", o->traces,
                  "trace files (.json or .json.gz), or folders of them, one per rank; or one ppsim timeline "
                  "(simulate --json's shape, ticks as ns) as a hand-made measured run; or one Megatron-LM log "
                  "with per-rank timers (--timing-log-level 2 --timing-log-option all)")
      ->required();
  cmd->add_option("--step", o->options.step, "ProfilerStep#N to read (default: the last complete one); in a Megatron-LM log, iteration N's timers")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 62));
  CLI::Option* expect = cmd->add_option("--expect", o->options.expect_file,
                                        "cost file (docs/costs.md, ticks = ns) of the costs expected: a rank slower "
                                        "than them is a straggler");
  cmd->add_flag("--equal-stages", o->options.equal_stages, "the stages are equal: expect each kind's median over stages")
      ->excludes(expect);
  cmd->add_flag("--json", o->json, "print {orders, stage_to_rank, costs_us, hops, measured, replay, ideal, skew_us, "
                                   "findings, ...}");
  cmd->add_option("--export-costs", o->export_costs, "write the fitted costs as a cost file for --cost-file");
  cmd->add_option("-o,--output", o->outputs,
                  "write to this file (repeatable): " + render::StillPictures() +
                      " draws the measured run above its ideal; any other name gets the report (atomically) instead "
                      "of stdout");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

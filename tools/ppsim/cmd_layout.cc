// ppsim layout STRING -P P [--chunks v] [--num-layers N] [--mtp-layers K] [--json]
// ppsim layout -P P --num-layers N [--chunks v] [--decoder-first-pipeline-num-layers a]
//              [--decoder-last-pipeline-num-layers b] [--account-for-embedding-in-pipeline-split]
//              [--account-for-loss-in-pipeline-split] [--json]
// A Megatron --pipeline-model-parallel-layout string read as Megatron reads
// it: each (pp rank, vp stage)'s layers, and the split written back for
// Megatron and torchtitan (jobs::MakeLayoutReport; docs/layouts.md).
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/jobs/layout_report.h"

namespace ppsim::cli {
namespace {

struct LayoutCliOptions {
  std::string text;
  jobs::LayoutArgs args;
  bool json = false;
};

int Run(const LayoutCliOptions& o) {
  Result<jobs::LayoutReport> report = jobs::LayoutReportFor(o.text, o.args);
  if (!report) return Report(report.error());
  for (const std::string& w : report->layout.warnings) std::fprintf(stderr, "ppsim: warning: %s\n", w.c_str());
  const std::string& out = o.json ? report->json + "\n" : report->text;
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

const CommandRegistrar layout_registrar(37, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<LayoutCliOptions>();
  CLI::App* cmd =
      app.add_subcommand("layout",
                         "read a Megatron --pipeline-model-parallel-layout string as Megatron does: the layers of each "
                         "(pp rank, vp stage), written back for Megatron and torchtitan (docs/layouts.md)");
  cmd->add_option("layout", o->text,
                  "the layout string, e.g. 'Et*3|(tt|)*29,m|L'; without it, the split Megatron's flags below give");
  cmd->add_option("-P,--stages", o->args.P, "pipeline ranks (required)");
  cmd->add_option("--chunks,-v", o->args.chunks, "virtual stages per rank (default: the string's stages / P)");
  cmd->add_option("--num-layers", o->args.num_layers, "decoder layers the model has (default: the string's t count)");
  cmd->add_option("--mtp-layers", o->args.mtp_layers, "MTP layers the model has (default: the string's m count)");
  cmd->add_option("--decoder-first-pipeline-num-layers", o->args.decoder_first_pipeline_num_layers,
                  "Megatron's flag: decoder layers of rank 0 (instead of a string)");
  cmd->add_option("--decoder-last-pipeline-num-layers", o->args.decoder_last_pipeline_num_layers,
                  "Megatron's flag: decoder layers of rank P-1");
  cmd->add_flag("--account-for-embedding-in-pipeline-split", o->args.account_for_embedding_in_pipeline_split,
                "Megatron's flag: the embedding counts as a layer of the first stage");
  cmd->add_flag("--account-for-loss-in-pipeline-split", o->args.account_for_loss_in_pipeline_split,
                "Megatron's flag: the loss counts as a layer of the last stage");
  cmd->add_flag("--json", o->json, "print {layout, P, v, stages: [[{layers, decoder_layer_ids, ...}]], ...}");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

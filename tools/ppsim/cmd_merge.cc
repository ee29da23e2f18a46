// ppsim merge SHARD.json... [-o FILE]: the shards of `ppsim check --sweep
// --shard I/N --json` joined into what the unsplit sweep's --json prints.
#include <memory>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/sweep_merge.h"

namespace ppsim::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  std::string output = "-";
};

int Run(const MergeOptions& o) {
  std::vector<scene::ShardFile> files;
  for (const std::string& path : o.shards) {
    Result<std::string> text = io::ReadFile(path);
    if (!text) return Report(text.error());
    files.push_back({path, std::move(*text)});
  }
  Result<scene::MergedSweep> merged = scene::MergeSweepShards(files);
  if (!merged) return Report(merged.error());
  Error e = io::WriteFileAtomically(o.output, merged->json + "\n");
  if (e.code != ErrorCode::kOk) return Report(e);
  return merged->ok ? 0 : ExitCode(ErrorCode::kClaimFalse);  // as `ppsim check --sweep` exits
}

const CommandRegistrar merge_registrar(45, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<MergeOptions>();
  CLI::App* cmd = app.add_subcommand("merge", "join the --json outputs of `ppsim check --sweep ... --shard I/N` "
                                              "into the unsplit sweep's");
  cmd->add_option("shards", o->shards, "every shard's JSON file, 1/N to N/N in any order")->required();
  cmd->add_option("-o,--output", o->output, "write to this file (atomically) instead of stdout");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

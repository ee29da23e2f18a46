// ppsim validate TIMELINE.json [--comm c] [--json]
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/mapped_file.h"
#include "ppsim/cost_spec.h"
#include "ppsim/io/timeline_json.h"
#include "ppsim/validate.h"

namespace ppsim::cli {
namespace {

struct ValidateOptions {
  std::string file;
  std::string comm;  // empty: the file's own, else 0
  bool json = false;
  int max_shown = 10;
};

int Run(const ValidateOptions& o) {
  Result<MappedFile> file = MappedFile::Open(o.file, kMaxTimelineBytes);  // "-" = stdin
  if (!file) return Report(file.error());
  Result<TimelineToCheck> timeline = ParseTimelineJson(file->text(), o.file == "-" ? "<stdin>" : DisplayPath(o.file));
  if (!timeline) return Report(timeline.error());
  if (!o.comm.empty() && (!ParseTick(o.comm, timeline->comm) || timeline->comm < 0))
    return Report(Fail(ErrorCode::kInvalidValue, "--comm: '" + o.comm + "' is not a whole number of ticks ≥ 0"));
  const std::vector<Violation> violations = ValidateTimeline(*timeline);
  Tick makespan = 0;
  for (const PlacedOp& op : timeline->ops) makespan = std::max(makespan, op.end);
  if (o.json) {
    nlohmann::json j = {{"ok", violations.empty()}, {"ops", timeline->ops.size()}, {"makespan", makespan}};
    j["violations"] = nlohmann::json::array();
    for (const Violation& v : violations) j["violations"].push_back({{"rule", v.rule}, {"message", v.message}});
    std::printf("%s\n", DumpJson(j).c_str());
  } else if (violations.empty()) {
    std::printf("ok: %zu ops, legal and tight, makespan %lld\n", timeline->ops.size(),
                static_cast<long long>(makespan));
  } else {
    const int shown = std::min<int>(o.max_shown, static_cast<int>(violations.size()));
    for (int i = 0; i < shown; ++i)
      std::fprintf(stderr, "%s: %s\n", violations[i].rule.c_str(), violations[i].message.c_str());
    if (static_cast<int>(violations.size()) > shown)
      std::fprintf(stderr, "... and %zu more\n", violations.size() - shown);
  }
  if (!violations.empty() && !o.json)
    std::fprintf(stderr, "ppsim: %s: %zu violation(s); first: %s\n", o.file.c_str(), violations.size(),
                 violations[0].message.c_str());
  return violations.empty() ? 0 : ExitCode(ErrorCode::kInvalidTimeline);
}

const CommandRegistrar registrar(30, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand("validate", "check a timeline: every op once, no overlaps, dependencies met, "
                                                 "each op at the earliest tick allowed");
  cmd->add_option("timeline", o->file, "the JSON `ppsim simulate --json` prints, or just its ops list; - = stdin")
      ->required();
  cmd->add_option("--comm", o->comm, "communication latency to assume (default: the file's `comm`, else 0)");
  cmd->add_option("--max", o->max_shown, "violations to list (default 10)");
  cmd->add_flag("--json", o->json, "print {ok, ops, makespan, violations: [{rule, message}]}");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

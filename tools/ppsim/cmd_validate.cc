// ppsim validate TIMELINE.json [--comm c] [--json] | SCHEDULE.csv [--json]
#include <cstdio>
#include <memory>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/mapped_file.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/io/timeline_json.h"
#include "ppsim/jobs/validation_report.h"
#include "ppsim/validate.h"
#include "ppsim/whole_number.h"

namespace ppsim::cli {
namespace {

struct ValidateOptions {
  std::string file;
  std::string comm;  // empty: the file's own, else 0
  bool json = false;
  int max_shown = 10;
};

int Print(const ValidateOptions& o, const jobs::ValidationReport& r) {
  if (o.json) {
    std::printf("%s\n", r.json.c_str());
  } else {
    std::fputs(r.text.c_str(), stdout);
    std::fputs(r.listed.c_str(), stderr);
    if (!r.ok) std::fprintf(stderr, "ppsim: %s\n", r.verdict.c_str());
  }
  return r.ok ? 0 : ExitCode(ErrorCode::kInvalidTimeline);
}

int Run(const ValidateOptions& o) {
  if (io::IsPytorchCsvPath(o.file)) {  // a schedule, not a timeline: read, placed at unit costs, checked
    if (!o.comm.empty()) return Report(Fail(ErrorCode::kUsage, "--comm applies to a timeline, not to a schedule CSV"));
    Result<jobs::ValidationReport> r = jobs::ValidateScheduleFile(o.file, o.max_shown);
    if (!r) return Report(r.error());
    return Print(o, *r);
  }
  Result<io::MappedFile> file = io::MappedFile::OpenJson(o.file, io::kMaxTimelineBytes,
                                                         io::kMaxTimelineDepth + 8);  // "-" = stdin; + the shape's own levels
  if (!file) return Report(file.error());
  Result<TimelineToCheck> timeline = io::ParseTimelineJson(file->text(), o.file == "-" ? "<stdin>" : io::DisplayPath(o.file));
  if (!timeline) return Report(timeline.error());
  if (!o.comm.empty() && (!IsWhole(o.comm, timeline->comm) || timeline->comm < 0))
    return Report(Fail(ErrorCode::kInvalidValue, "--comm: '" + o.comm + "' is not a whole number of ticks ≥ 0"));
  std::int64_t unlisted = 0;
  const std::vector<Violation> violations = ValidateTimeline(*timeline, &unlisted);
  return Print(o, jobs::ReportValidation(*timeline, violations, o.file, o.max_shown, unlisted));
}

const CommandRegistrar validate_registrar(30, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand("validate", "check a timeline: every op once, no overlaps, dependencies met, "
                                                 "each op at the earliest tick allowed");
  cmd->add_option("timeline", o->file,
                  "the JSON `ppsim simulate --json` prints, or just its ops list; - = stdin; or a PyTorch schedule "
                  "CSV (FILE.csv), checked by PyTorch's rules and placed at unit costs")
      ->required();
  cmd->add_option("--comm", o->comm, "communication latency to assume (default: the file's `comm`, else 0)");
  cmd->add_option("--max", o->max_shown, "violations to list (default 10)")->check(CLI::Range(0, 2147483647));
  cmd->add_flag("--json", o->json, "print {ok, ops, makespan, violations: [{rule, message}]}");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli

// A ppsim timeline as a measured run for `ppsim explain`: what a user writes
// by hand (or `simulate --json` prints) to ask "what does explain say of
// this run?" without a profiler. Each device becomes one rank's trace; each
// op an action named as PyTorch's runtime names it (str(_Action): "1F3";
// a backward is "B" when the run does not split it, else "I" then "W"),
// whose CPU and GPU intervals are the op's [start, end), ticks read as ns.
#include <algorithm>
#include <string>
#include <vector>

#include "explain_internal.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/mapped_file.h"
#include "ppsim/io/timeline_json.h"

namespace ppsim::jobs::explain {

Result<std::vector<io::KinetoTrace>> TimelineAsTraces(const std::string& path) {
  const std::string shown = io::DisplayPath(path);
  Result<io::MappedFile> file = io::MappedFile::OpenJson(path, io::kMaxTimelineBytes, io::kMaxTimelineDepth + 8);
  if (!file) return file.error();
  Result<TimelineToCheck> timeline = io::ParseTimelineJson(file->text(), shown);
  if (!timeline) return timeline.error();
  std::vector<PlacedOp> ops = std::move(timeline->ops);
  if (ops.empty()) return Fail(ErrorCode::kParse, shown + ": the timeline has no ops");
  bool split = false;
  int P = 0;
  for (const PlacedOp& op : ops) {
    const std::string at = shown + ": " + std::string(1, "FBWR"[static_cast<int>(op.kind)]) +
                           std::to_string(op.microbatch) + "@s" + std::to_string(op.stage);
    if (op.overlap >= 0)
      return Fail(ErrorCode::kBadSchedule, at + " is half of an overlapped pair; explain does not read "
                                                "overlapped (OVERLAP_F_B) actions yet");
    if (op.kind == OpKind::kR)
      return Fail(ErrorCode::kBadSchedule, at + " is a recompute op; explain reads F, B, I and W actions only");
    if (op.slice != 0)
      return Fail(ErrorCode::kBadSchedule, at + " is a sequence slice; explain reads whole microbatches only");
    split = split || op.kind == OpKind::kW;
    P = std::max(P, op.device + 1);
  }
  // Each rank's actions in the order they ran.
  std::stable_sort(ops.begin(), ops.end(), [](const PlacedOp& a, const PlacedOp& b) {
    return a.device != b.device ? a.device < b.device : a.start < b.start;
  });
  std::vector<io::KinetoTrace> traces(P);
  for (int r = 0; r < P; ++r) {
    traces[r].file = path;
    traces[r].rank = r;
    traces[r].world_size = P;
    traces[r].relative = true;
  }
  for (const PlacedOp& op : ops) {
    const char letter = op.kind == OpKind::kF ? 'F' : op.kind == OpKind::kW ? 'W' : split && !op.full ? 'I' : 'B';
    io::KinetoAction a;
    a.name = std::to_string(op.stage) + letter + std::to_string(op.microbatch);
    a.cpu_start = a.gpu_start = a.first_launch = op.start;
    a.cpu_end = a.gpu_end = op.end;
    a.annotated = true;
    traces[op.device].actions.push_back(std::move(a));
  }
  for (const io::KinetoTrace& t : traces)
    if (t.actions.empty())
      return Fail(ErrorCode::kInvalidValue, shown + ": device " + std::to_string(&t - traces.data()) +
                                                " runs no op (devices 0.." + std::to_string(P - 1) + " expected)");
  return traces;
}

}  // namespace ppsim::jobs::explain

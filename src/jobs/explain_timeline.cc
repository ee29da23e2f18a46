// A ppsim timeline as a measured run for `ppsim explain`: what a user writes
// by hand (or `simulate --json` prints) to ask "what does explain say of
// this run?" without a profiler. Each device becomes one rank's trace; each
// op an action named as PyTorch's runtime names it (str(_Action): "1F3";
// a backward is "B" when the run does not split it, else "I" then "W"),
// whose CPU and GPU intervals are the op's [start, end), ticks read as ns.
// The two halves of an overlapped pair (the same "overlap" id on one
// device) are one action, "(0F7;7B3)OVERLAP_F_B", spanning both.
#include <algorithm>
#include <string>
#include <vector>

#include "explain_internal.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/mapped_file.h"
#include "ppsim/io/timeline_json.h"
#include "ppsim/op.h"

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
    const std::string at = shown + ": " + OpName(op.op());
    if (op.kind == OpKind::kR)
      return Fail(ErrorCode::kBadSchedule, at + " is a recompute op; explain reads F, B, I and W actions only");
    if (op.slice != 0)
      return Fail(ErrorCode::kBadSchedule, at + " is a sequence slice; explain reads whole microbatches only");
    split = split || op.kind == OpKind::kW;
    P = std::max(P, op.device + 1);
  }
  // Each rank's actions in the order they ran; a pair's halves side by side,
  // its forward first.
  std::stable_sort(ops.begin(), ops.end(), [](const PlacedOp& a, const PlacedOp& b) {
    if (a.device != b.device) return a.device < b.device;
    if (a.start != b.start) return a.start < b.start;
    if (a.overlap != b.overlap) return a.overlap < b.overlap;
    return a.kind == OpKind::kF && b.kind != OpKind::kF;
  });
  std::vector<io::KinetoTrace> traces(P);
  for (int r = 0; r < P; ++r) {
    traces[r].file = path;
    traces[r].rank = r;
    traces[r].world_size = P;
    traces[r].relative = true;
  }
  auto name = [split](const PlacedOp& op) {
    const char letter = op.kind == OpKind::kF ? 'F' : op.kind == OpKind::kW ? 'W' : split && !op.full ? 'I' : 'B';
    return std::to_string(op.stage) + letter + std::to_string(op.microbatch);
  };
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const PlacedOp& op = ops[i];
    io::KinetoAction a;
    a.name = name(op);
    a.cpu_start = a.gpu_start = a.first_launch = op.start;
    a.cpu_end = a.gpu_end = op.end;
    if (op.overlap >= 0) {
      // simulate --json writes both halves with the pair's interval and id.
      const bool whole = i + 1 < ops.size() && ops[i + 1].device == op.device &&
                         ops[i + 1].overlap == op.overlap && op.kind == OpKind::kF &&
                         ops[i + 1].kind == OpKind::kB;
      if (!whole)
        return Fail(ErrorCode::kBadSchedule,
                    shown + ": " + OpName(op.op()) + " on device " + std::to_string(op.device) +
                        " is half of overlapped pair " + std::to_string(op.overlap) +
                        ", whose other half (a backward starting with it, on the same device) is missing");
      const PlacedOp& b = ops[++i];
      a.name = "(" + a.name + ";" + name(b) + ")OVERLAP_F_B";
      a.cpu_end = a.gpu_end = std::max(op.end, b.end);
    }
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

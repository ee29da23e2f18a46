#include "search_seeds.h"

#include "schedule_builder.h"
#include "ppsim/generators.h"

namespace ppsim::search {

Schedule WithSplitBackward(const Problem& p, Schedule s) {
  const bool had_w = s.split_backward;
  s.split_backward = true;
  s.space = p.Space();
  for (auto& queue : s.devices) {
    std::vector<Slot> out;
    out.reserve(queue.size() * 2);
    for (const Slot& slot : queue) {
      for (OpId id : {slot.op, OpId{slot.overlapped}}) {
        if (id == kNoOp) continue;
        out.push_back({id, kNoOp});
        const Op op = s.space.At(id);
        // An unsplit B, or a full one (Slot::full), becomes B then its W.
        if ((!had_w || slot.full) && op.kind == OpKind::kB)
          out.push_back({s.space.Id(OpKind::kW, op.microbatch, op.stage), kNoOp});
      }
    }
    queue = std::move(out);
  }
  return s;
}

std::vector<const GeneratorInfo*> FixedGenerators(const Problem& p) {
  std::vector<const GeneratorInfo*> out;
  for (const GeneratorInfo& g : Generators())  // slice-aware orders at one slice repeat 1F1B's
    if (g.placement == p.placement && (g.fixed_chunks == 0 || g.fixed_chunks == p.v) && !g.takes_slices)
      out.push_back(&g);
  return out;
}

std::optional<NamedSchedule> FixedSchedule(const Problem& p, const GeneratorInfo& g) {
  Problem q = p;
  Result<Schedule> s = Generate(g.name, q);
  if (!s.ok() || q.v != p.v || q.placement != p.placement) return std::nullopt;
  NamedSchedule n{g.name, WithSplitBackward(p, std::move(*s))};
  n.schedule.name = g.name;
  return n;
}

Schedule OneAtATime(const Problem& p) {
  Schedule s = EmptySchedule(p);
  s.name = "one-at-a-time";
  s.split_backward = true;
  const int S = p.stages();
  for (int m = 0; m < p.M; ++m) {
    for (int st = 0; st < S; ++st) QueueBuilder(s, p.DeviceOf(st)).F(m, st);
    for (int st = S - 1; st >= 0; --st) {
      QueueBuilder q(s, p.DeviceOf(st));
      q.B(m, st);
      q.W(m, st);
    }
  }
  return s;
}

}  // namespace ppsim::search

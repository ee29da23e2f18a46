// Recompute as an op (recompute.h): R(m,s) right before B(m,s) on its
// device, costing the stage's F; the time it costs and the memory it saves,
// exactly, on 1F1B at P = 4, M = 8, F = 1, BW = 2 with 1000 bytes a
// stage-microbatch, against the same run without recompute.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/memory_bytes.h"
#include "ppsim/metrics.h"
#include "ppsim/problem_keys.h"
#include "ppsim/recompute.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Problem OneFOneB(RecomputeMode mode, RecomputeAt at = RecomputeAt::kBeforeB) {
  Problem p;
  p.P = 4;
  p.M = 8;
  p.costs.f = {1};
  p.costs.bw = {2};
  p.memory.activation_bytes = {1000};
  p.recompute = mode;
  p.recompute_at = at;
  p.recompute_inputs_num = 1;
  p.recompute_inputs_den = 10;
  return p;
}

Timeline Placed(const Problem& p) {
  Result<Timeline> t = Simulate("1f1b", p);
  EXPECT_TRUE(t.ok()) << t.error().Text();
  return *t;
}

TEST(Recompute, FullRecomputeOn1F1BPaysOneForwardPerMicrobatchOnTheCriticalPath) {
  const Timeline off = Placed(OneFOneB(RecomputeMode::kOff)), on = Placed(OneFOneB(RecomputeMode::kFull));
  EXPECT_EQ(off.makespan, 33);  // (M + P - 1)(F + BW)
  EXPECT_EQ(on.makespan, 44);   // (M + P - 1)(F + R + BW): R waits for B's gradient, as Megatron's does
  const Metrics a = Measure(off), b = Measure(on);
  EXPECT_EQ(b.busy - a.busy, 4 * 8 * 1);  // P·M recomputed forwards of 1 tick
  EXPECT_TRUE(b.recompute);
  EXPECT_FALSE(a.recompute);
  EXPECT_EQ(b.recompute_time, 32);
  EXPECT_EQ(b.recompute_time_per_device, (std::vector<Tick>{8, 8, 8, 8}));
  // Counted in stage-sets, a recomputed set is whole only from R's start to B's.
  EXPECT_EQ(a.activations.peak_per_device, (std::vector<std::int64_t>{4, 3, 2, 0}));
  EXPECT_EQ(b.activations.peak_per_device, (std::vector<std::int64_t>{1, 1, 1, 1}));
}

TEST(Recompute, BytesHeldAreTheInputsUntilRAndTheWholeSetFromR) {
  const MemoryBytes a = MeasureMemoryBytes(Placed(OneFOneB(RecomputeMode::kOff)));
  const MemoryBytes b = MeasureMemoryBytes(Placed(OneFOneB(RecomputeMode::kFull)));
  EXPECT_EQ(a.peak_per_device, (std::vector<std::int64_t>{4000, 3000, 2000, 0}));
  // Device d keeps P - d microbatches in flight: one whole (the one R rebuilt)
  // and the others' inputs, a tenth each.
  EXPECT_EQ(b.peak_per_device, (std::vector<std::int64_t>{1300, 1200, 1100, 1000}));
}

TEST(Recompute, RSitsRightBeforeItsBAndNeverBeforeItsF) {
  for (RecomputeAt at : {RecomputeAt::kBeforeB, RecomputeAt::kEarly}) {
    const Timeline t = Placed(OneFOneB(RecomputeMode::kFull, at));
    const OpSpace& space = t.schedule.space;
    ASSERT_TRUE(space.recompute());
    int rs = 0;
    for (const std::vector<Slot>& queue : t.schedule.devices)
      for (size_t i = 0; i < queue.size(); ++i) {
        const Op op = space.At(queue[i].op);
        if (op.kind != OpKind::kR) continue;
        ++rs;
        ASSERT_LT(i + 1, queue.size());
        EXPECT_EQ(space.At(queue[i + 1].op), (Op{OpKind::kB, op.microbatch, op.stage}));
        EXPECT_GE(t.Start(queue[i].op), t.end[space.Id(OpKind::kF, op.microbatch, op.stage)]);
        EXPECT_EQ(t.end[queue[i].op] - t.Start(queue[i].op), 1);  // the stage's F
      }
    EXPECT_EQ(rs, 4 * 8);
  }
}

// Mario-like: R no longer waits on the gradient, so it runs in the idle time
// before it; same work, an earlier end.
TEST(Recompute, EarlyRecomputeFillsTheWaitForTheGradient) {
  const Timeline before = Placed(OneFOneB(RecomputeMode::kFull));
  const Timeline early = Placed(OneFOneB(RecomputeMode::kFull, RecomputeAt::kEarly));
  EXPECT_EQ(early.makespan, 41);
  EXPECT_EQ(Measure(early).busy, Measure(before).busy);
  const OpSpace& space = early.schedule.space;
  for (int m = 0; m < 8; ++m)
    for (int s = 0; s < 4; ++s) {
      const OpId r = space.Id(OpKind::kR, m, s), b = space.Id(OpKind::kB, m, s);
      EXPECT_LE(early.Start(r) - early.Start(b), before.Start(r) - before.Start(b)) << m << " " << s;
    }
}

TEST(Recompute, BadInputIsRefusedNamingTheField) {
  Problem p = OneFOneB(RecomputeMode::kFull);
  Error e = SetProblemKey("recompute_inputs", KeyValue::Other("1.5"), p);
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.Text(), "recompute_inputs must be in [0, 1], got 1.5");
  EXPECT_TRUE(SetProblemKey("recompute_inputs", KeyValue::Other("0.125"), p).ok());
  EXPECT_EQ(p.recompute_inputs_num * 8, p.recompute_inputs_den);
  EXPECT_TRUE(SetProblemKey("recompute_inputs", KeyValue::Word("1/8"), p).ok());
  EXPECT_EQ(p.recompute_inputs_num, 1);
  EXPECT_EQ(p.recompute_inputs_den, 8);
  p.memory.activation_bytes = {1000, 0, 1000, 1000};
  e = ValidateProblem(p);
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.Text(), "recompute: stage 1 holds no activations (memory.activation_bytes[1] = 0): nothing to recompute");
  p.memory.activation_bytes = {1000};
  p.recompute = RecomputeMode::kSelective;
  EXPECT_EQ(ValidateProblem(p).code, ErrorCode::kInvalidValue);  // selective needs a model file's R costs
}

TEST(Recompute, AScheduleListingROpsNeedsAProblemThatRecomputes) {
  const Timeline t = Placed(OneFOneB(RecomputeMode::kFull));
  Problem off = OneFOneB(RecomputeMode::kOff);
  const Error e = CheckComplete(off, t.schedule);
  EXPECT_EQ(e.code, ErrorCode::kBadSchedule);
}

}  // namespace
}  // namespace ppsim

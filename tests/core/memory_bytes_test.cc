// Device memory in bytes: static state, activations freed by B and W, the
// DualPipe parameter doubling and the first tick over a device limit.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/memory_bytes.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Timeline MustSimulate(const std::string& name, const Problem& p) {
  Result<Timeline> t = Simulate(name, p);
  EXPECT_TRUE(t.ok()) << name << ": " << t.error().message;
  return std::move(*t);
}

Problem Sized(int P, int M) {
  Problem p;
  p.P = P;
  p.M = M;
  p.hold = HoldMode::kResident;
  return p;
}

TEST(MemoryBytes, OneFOneBPeakIsStaticPlusPMinusDActivations) {
  Problem p = Sized(4, 8);
  p.memory.activation_bytes = {100};
  p.memory.param_bytes = {1000};
  p.memory.grad_bytes = {1000};
  p.memory.optimizer_bytes = {4000};
  const MemoryBytes m = MeasureMemoryBytes(MustSimulate("1f1b", p));
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(m.static_per_device[d], 6000);
    EXPECT_EQ(m.peak_per_device[d], 6000 + (4 - d) * 100) << d;
  }
  EXPECT_FALSE(m.exceeded);
}

TEST(MemoryBytes, PerStageValuesAddUpOnTheirDevice) {
  Problem p = Sized(2, 4);
  p.v = 2;
  p.memory.param_bytes = {1, 20, 300, 4000};  // stages 0..3; loop placement: device 0 holds 0 and 2
  const MemoryBytes m = MeasureMemoryBytes(MustSimulate("interleaved", p));
  EXPECT_EQ(m.static_per_device[0], 301);
  EXPECT_EQ(m.static_per_device[1], 4020);
}

// DualPipe keeps two copies of the model: with the same per-stage state as
// 1F1B, every device holds twice as much. DualPipeV splits the model into
// 2P stages instead, so at half the per-stage state it holds what 1F1B does.
TEST(MemoryBytes, DualPipeDoublesParameters) {
  for (int P : {2, 4, 8}) {
    Problem p = Sized(P, 2 * P);
    p.memory.param_bytes = {1 << 20};
    const MemoryBytes one = MeasureMemoryBytes(MustSimulate("1f1b", p));
    const MemoryBytes dual = MeasureMemoryBytes(MustSimulate("dualpipe", p));
    p.memory.param_bytes = {1 << 19};
    const MemoryBytes dualv = MeasureMemoryBytes(MustSimulate("dualpipev", p));
    for (int d = 0; d < P; ++d) {
      EXPECT_EQ(dual.static_per_device[d], 2 * one.static_per_device[d]);
      EXPECT_EQ(dualv.static_per_device[d], one.static_per_device[d]);
    }
  }
}

// One device, one microbatch: F [0,1), B [1,2), W [2,3). Resident: 40% of
// the bytes are freed when B ends, the rest when W ends.
TEST(MemoryBytes, SplitBackwardFreesItsShares) {
  Problem p = Sized(1, 1);
  p.costs.b = {1};
  p.costs.w = {1};
  p.memory.activation_bytes = {100};
  p.memory.freed_by_b_percent = 40;
  MemoryBytes m = MeasureMemoryBytes(MustSimulate("zb-h1", p));
  const StepSeries& s = m.activations_per_device[0];
  EXPECT_EQ(s.At(0), 100);
  EXPECT_EQ(s.At(1), 100);
  EXPECT_EQ(s.At(2), 60);
  EXPECT_EQ(s.At(3), 0);
  EXPECT_EQ(m.peak_per_device[0], 100);
  // Held: from the end of F to the start of B (40%) and of W (60%).
  p.hold = HoldMode::kHeld;
  m = MeasureMemoryBytes(MustSimulate("zb-h1", p));
  EXPECT_EQ(m.activations_per_device[0].At(0), 0);
  EXPECT_EQ(m.activations_per_device[0].At(1), 60);
  EXPECT_EQ(m.activations_per_device[0].At(2), 0);
}

// 1F1B, unit costs, resident: device 0 starts its 4th forward at tick 3 and
// then holds 4 × 100 bytes; no other device ever holds more than 300.
TEST(MemoryBytes, FirstTickAndDeviceOverTheLimit) {
  Problem p = Sized(4, 8);
  p.memory.activation_bytes = {100};
  p.memory.limit = 350;
  MemoryBytes m = MeasureMemoryBytes(MustSimulate("1f1b", p));
  EXPECT_TRUE(m.exceeded);
  EXPECT_EQ(m.first_tick, 3);
  EXPECT_EQ(m.first_device, 0);
  EXPECT_EQ(m.bytes_at_first, 400);
  p.memory.limit = 400;
  EXPECT_FALSE(MeasureMemoryBytes(MustSimulate("1f1b", p)).exceeded);
  // Static state alone over the limit: exceeded from tick 0.
  p.memory.param_bytes = {500};
  m = MeasureMemoryBytes(MustSimulate("1f1b", p));
  EXPECT_EQ(m.first_tick, 0);
  EXPECT_EQ(m.first_device, 0);
}

TEST(MemoryBytes, BadModelsNameTheField) {
  Problem p = Sized(4, 8);
  p.memory.activation_bytes = {1, 2, 3};
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kInvalidValue);
  EXPECT_NE(t.error().message.find("activation_bytes: 3 per-stage values"), std::string::npos) << t.error().message;
  p.memory.activation_bytes = {-1};
  EXPECT_NE(Simulate("1f1b", p).error().message.find("activation_bytes must be ≥ 0"), std::string::npos);
  p.memory.activation_bytes = {kMaxBytes + 1};
  EXPECT_EQ(Simulate("1f1b", p).error().code, ErrorCode::kTooLarge);
  p.memory.activation_bytes = {1};
  p.memory.freed_by_b_percent = 150;
  EXPECT_NE(Simulate("1f1b", p).error().message.find("freed_by_b_percent"), std::string::npos);
}

}  // namespace
}  // namespace ppsim

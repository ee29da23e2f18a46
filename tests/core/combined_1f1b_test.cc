// Megatron-LM's combined 1F1B (`combined-1f1b`, overlap_moe_expert_parallel_
// comm): equal to Megatron's own order on every public entry; at every size
// Megatron accepts, one more warm-up forward than interleaved, then steady
// (F;B) pairs whose backward never waits on its own forward; interleaved's
// makespan and bubble; and Megatron's refusals, with its reasons.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/peer_order.h"
#include "ppsim/closed_forms.h"
#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"
#include "ppsim/validate.h"
#include "timeline_to_check.h"

namespace ppsim {
namespace {

Problem Sized(int P, int M, int v, int group) {
  Problem p;
  p.P = P;
  p.M = M;
  p.v = v;
  p.group = group;
  return p;
}

std::string Label(const Problem& p) {
  return "combined-1f1b P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" + std::to_string(p.v) +
         " group=" + std::to_string(p.group);
}

// Megatron accepts a group g iff P ≤ g ≤ M and M mod g is 0 or ≥ P.
bool MegatronAccepts(int P, int M, int g) { return g >= P && g <= M && (M % g == 0 || M % g >= P); }

// Calls f(problem) for every size Megatron accepts with P in [2, 8], v in {2, 3}.
template <typename F>
int ForEachAccepted(F f) {
  int n = 0;
  for (int P = 2; P <= 8; ++P)
    for (int v = 2; v <= 3; ++v)
      for (int M = P; M <= 3 * P + 3; ++M)
        for (int g = P; g <= M; ++g)
          if (MegatronAccepts(P, M, g)) {
            f(Sized(P, M, v, g));
            ++n;
          }
  return n;
}

TEST(Combined1F1B, EqualsMegatronOnEveryPublicEntry) {
  int compared = 0;
  for (const nlohmann::json& e : testing::PeerEntries("Megatron interleaved 1F1B with combined F&B")) {
    Problem p = Sized(e.at("P"), e.at("M"), e.at("v"), e.at("microbatch_group_size_per_vp_stage"));
    const std::string label = Label(p);
    Result<Schedule> s = Generate("combined-1f1b", p);
    ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label;
    testing::ExpectRecordedOrders(e, p, *s, label);
    ++compared;
  }
  EXPECT_GE(compared, 2);  // P=2 v=2 M=4, groups 2 and 4
}

// Megatron's structure (schedules.py, get_pp_rank_microbatches): device d
// runs min((v-1)·g + 2(P-1-d) + 1, v·M) forwards alone, then pairs, then
// backwards alone; forwards and backwards come in interleaved's order.
TEST(Combined1F1B, IsInterleavedWithOneMoreWarmupForwardAndPairs) {
  const int checked = ForEachAccepted([](Problem p) {
    Problem q = p;
    const std::string label = Label(p);
    Result<Schedule> s = Generate("combined-1f1b", p), plain = Generate("interleaved", q);
    ASSERT_TRUE(s.ok() && plain.ok()) << label;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label;
    for (int d = 0; d < p.P; ++d) {
      const int warmup = std::min((p.v - 1) * p.group + 2 * (p.P - 1 - d) + 1, p.v * p.M);
      std::vector<OpId> forwards, backwards, plain_f, plain_b;
      const std::vector<Slot>& queue = s->devices[d];
      ASSERT_EQ(queue.size(), static_cast<size_t>(2 * p.v * p.M - (p.v * p.M - warmup))) << label;
      for (size_t i = 0; i < queue.size(); ++i) {
        const Slot& slot = queue[i];
        const bool in_warmup = static_cast<int>(i) < warmup;
        const bool in_steady = !in_warmup && static_cast<int>(i) < p.v * p.M;
        EXPECT_EQ(slot.pair(), in_steady) << label << " device " << d << " slot " << i;
        EXPECT_FALSE(slot.full) << label;  // unsplit: every B is Megatron's full backward_step
        const OpKind first = s->space.At(slot.op).kind;
        EXPECT_EQ(first, in_warmup || in_steady ? OpKind::kF : OpKind::kB) << label << " slot " << i;
        (first == OpKind::kF ? forwards : backwards).push_back(slot.op);
        if (slot.pair()) backwards.push_back(slot.overlapped);
      }
      for (const Slot& slot : plain->devices[d])
        (plain->space.At(slot.op).kind == OpKind::kF ? plain_f : plain_b).push_back(slot.op);
      EXPECT_EQ(forwards, plain_f) << label << " device " << d;
      EXPECT_EQ(backwards, plain_b) << label << " device " << d;
    }
  });
  EXPECT_GT(checked, 300);
}

// The extra warm-up forward's purpose (Megatron: "to ensure the forward and
// backward computations are independent in all 1f1b steps"): no pair's
// backward is of the microbatch its forward is computing.
TEST(Combined1F1B, NoPairWaitsOnItself) {
  ForEachAccepted([](Problem p) {
    Result<Schedule> s = Generate("combined-1f1b", p);
    ASSERT_TRUE(s.ok()) << Label(p);
    for (const auto& queue : s->devices)
      for (const Slot& slot : queue)
        if (slot.pair()) {
          EXPECT_NE(s->space.At(slot.op).microbatch, s->space.At(slot.overlapped).microbatch) << Label(p);
        }
  });
}

// Placed, it validates, has interleaved's makespan (vM+P-1)(F+B) and bubble
// (P-1)/(vM) at any F, B, and holds min((v-1)g + 2(P-1-d) + 2, vM) chunk
// sets on device d (allocator view): what `compare` predicts.
TEST(Combined1F1B, ClosedFormsHoldForEveryAcceptedGroup) {
  ForEachAccepted([](Problem p) {
    for (Tick F : {1, 3})
      for (Tick B : {1, 2}) {
        Problem q = p;
        q.costs.f = {F};
        q.costs.bw = {B};
        q.hold = HoldMode::kResident;
        Result<Timeline> t = Simulate("combined-1f1b", q);
        ASSERT_TRUE(t.ok()) << Label(p) << ": " << t.error().message;
        const Metrics m = Measure(*t);
        const Prediction pred = Predict("combined-1f1b", t->problem);
        ASSERT_TRUE(pred.Find("makespan") && pred.Find("bubble_ratio") && pred.peak_per_device) << Label(p);
        EXPECT_EQ(m.makespan, (p.v * p.M + p.P - 1) * (F + B)) << Label(p) << " F=" << F << " B=" << B;
        EXPECT_EQ(Rational(m.makespan), pred.Find("makespan")->value) << Label(p);
        EXPECT_EQ(Rational::Of(m.idle, m.busy), pred.Find("bubble_ratio")->value) << Label(p);
        EXPECT_EQ(m.activations.peak_per_device, *pred.peak_per_device) << Label(p) << " F=" << F << " B=" << B;
      }
  });
}

// With communication latency and unequal costs the placement is still legal
// and tight: `validate` finds nothing wrong with it.
TEST(Combined1F1B, ValidatesWithCommunication) {
  ForEachAccepted([](Problem p) {
    p.costs.f = {2};
    p.costs.bw = {3};
    p.comm = 1;
    Result<Timeline> t = Simulate("combined-1f1b", p);
    ASSERT_TRUE(t.ok()) << Label(p) << ": " << t.error().message;
    const std::vector<Violation> v = ValidateTimeline(ToCheck(*t));
    EXPECT_TRUE(v.empty()) << Label(p) << ": " << (v.empty() ? "" : v[0].message);
  });
}

// P = 1 is Megatron's combined_1f1b_schedule_for_no_pipelining.
TEST(Combined1F1B, OneDeviceIsMegatronsNoPipeliningOrder) {
  Problem p = Sized(1, 4, 1, 0);
  Result<Schedule> s = Generate("combined-1f1b", p);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(testing::PeerOrder(*s, 0),
            (std::vector<std::string>{"F0s0", "(F1s0;B0s0)", "(F2s0;B1s0)", "(F3s0;B2s0)", "B3s0"}));
}

TEST(Combined1F1B, RefusesWhatMegatronRefuses) {
  for (int P = 2; P <= 6; ++P)
    for (int M = 1; M <= 3 * P; ++M)
      for (int g = 1; g <= 3 * P + 1; ++g) {
        Problem p = Sized(P, M, 2, g);
        Result<Schedule> s = Generate("combined-1f1b", p);
        EXPECT_EQ(s.ok(), MegatronAccepts(P, M, g)) << Label(p);
        if (!s.ok()) {
          EXPECT_EQ(s.error().code, ErrorCode::kPrecondition) << Label(p);
        }
      }
  Problem p = Sized(4, 8, 1, 0);
  Result<Schedule> s = Generate("combined-1f1b", p);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(s.error().Text(),
            "chunks must be ≥ 2 for combined-1f1b when P > 1 (Megatron: if enabling EP A2A overlap, "
            "virtual_pipeline_model_parallel_size must be specified when pipeline_model_parallel_size > 1); got "
            "1");
  p = Sized(1, 4, 2, 0);
  s = Generate("combined-1f1b", p);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kPrecondition);
  EXPECT_NE(s.error().message.find("does not support model chunking"), std::string::npos) << s.error().message;
  p = Sized(4, 10, 2, 4);
  EXPECT_EQ(Generate("combined-1f1b", p).error().Text(),
            "group 4: combined-1f1b: M mod group must be 0 or at least P = 4, but M = 10 leaves a last group of 2 "
            "(Megatron refuses it: a shorter last group leaves dependency bubbles)");
}

}  // namespace
}  // namespace ppsim

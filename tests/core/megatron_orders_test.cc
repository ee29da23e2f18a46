// Megatron-LM's interleaved order with microbatch_group_size_per_vp_stage
// (`interleaved --group g`): equal to Megatron's own order on the public
// entry, the same as PyTorch's rounds when g = P, Megatron's warm-up and
// group structure at every size it accepts, and its refusals elsewhere.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/peer_order.h"
#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/placement.h"
#include "ppsim/simulate.h"

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

std::string Label(const std::string& name, const Problem& p) {
  return name + " P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" + std::to_string(p.v) +
         " group=" + std::to_string(p.group);
}

// Megatron accepts a group g iff P ≤ g ≤ M and M mod g is 0 or ≥ P.
bool MegatronAccepts(int P, int M, int g) { return g >= P && g <= M && (M % g == 0 || M % g >= P); }

// Compares every public entry whose "schedule" is `peer` (or starts with
// it, unless `exact`).
void ExpectPeerOrders(const std::string& peer, const std::string& name, bool exact) {
  int compared = 0;
  for (const nlohmann::json& e : testing::PeerEntries(peer)) {
    if (exact && e.at("schedule") != peer) continue;
    Problem p = Sized(e.at("P"), e.at("M"), e.at("v"), e.at("microbatch_group_size_per_vp_stage"));
    const std::string label = Label(name, p);
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label;
    testing::ExpectRecordedOrders(e, p, *s, label);
    ++compared;
  }
  EXPECT_GT(compared, 0) << peer;
}

TEST(MegatronOrders, InterleavedWithGroupEqualsMegatron) {
  ExpectPeerOrders("Megatron interleaved 1F1B", "interleaved", true);
}

// g = P is Megatron's default and PyTorch's rounds when P divides M.
TEST(MegatronOrders, GroupOfPKeepsThePyTorchOrder) {
  for (int P = 2; P <= 8; ++P)
    for (int v = 2; v <= 3; ++v)
      for (int M = P; M <= 4 * P; M += P) {
        Problem a = Sized(P, M, v, 0), b = Sized(P, M, v, P);
        Result<Schedule> pytorch = Generate("interleaved", a), megatron = Generate("interleaved", b);
        ASSERT_TRUE(pytorch.ok() && megatron.ok()) << Label("interleaved", b);
        EXPECT_EQ(pytorch->devices, megatron->devices) << Label("interleaved", b);
      }
}

// Megatron's structure, read from its source: on device d the first
// min((v-1)·g + 2(P-1-d), v·M) ops are forwards, then forwards and
// backwards alternate, then only backwards remain; the k-th forward runs
// the chunk of entry k of the group table and the k-th backward the
// mirrored chunk of entry k; each chunk sees microbatches in order.
TEST(MegatronOrders, EveryAcceptedGroupFollowsMegatronsTable) {
  int checked = 0;
  for (int P = 2; P <= 8; ++P)
    for (int v = 2; v <= 3; ++v)
      for (int M = P; M <= 3 * P + 3; ++M)
        for (int g = P; g <= M; ++g) {
          if (!MegatronAccepts(P, M, g)) continue;
          Problem p = Sized(P, M, v, g);
          const std::string label = Label("interleaved", p);
          Result<Schedule> s = Generate("interleaved", p);
          ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
          ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label;
          std::vector<int> table;  // chunk of entry k
          for (int first = 0; first < M; first += g)
            for (int c = 0; c < v; ++c)
              for (int m = first; m < std::min(M, first + g); ++m) table.push_back(c);
          ASSERT_EQ(table.size(), static_cast<size_t>(v * M)) << label;
          for (int d = 0; d < P; ++d) {
            const std::vector<Slot>& q = s->devices[d];
            const int warmup = std::min((v - 1) * g + 2 * (P - 1 - d), v * M);
            int f = 0, b = 0;
            std::vector<int> next_f(v, 0), next_b(v, 0);
            for (size_t i = 0; i < q.size(); ++i) {
              const Op op = s->space.At(q[i].op);
              ASSERT_EQ(op.stage % P, d) << label;
              const int chunk = op.stage / P;
              const bool want_forward = static_cast<int>(i) < warmup ||
                                        (f < v * M && (static_cast<int>(i) - warmup) % 2 == 0);
              ASSERT_EQ(op.kind == OpKind::kF, want_forward) << label << " device " << d << " op " << i;
              if (op.kind == OpKind::kF) {
                EXPECT_EQ(chunk, table[f++]) << label << " device " << d << " op " << i;
                EXPECT_EQ(op.microbatch, next_f[chunk]++) << label;
              } else {
                EXPECT_EQ(chunk, v - 1 - table[b++]) << label << " device " << d << " op " << i;
                EXPECT_EQ(op.microbatch, next_b[chunk]++) << label;
              }
            }
          }
          Result<Timeline> t = Place(p, std::move(*s));
          ASSERT_TRUE(t.ok()) << label << ": " << t.error().message;
          ++checked;
        }
  EXPECT_GT(checked, 300);
}

TEST(MegatronOrders, RefusesWhatMegatronRefuses) {
  for (int P = 2; P <= 6; ++P)
    for (int M = 1; M <= 3 * P; ++M)
      for (int g = 1; g <= 3 * P + 1; ++g) {
        Problem p = Sized(P, M, 2, g);
        Result<Schedule> s = Generate("interleaved", p);
        EXPECT_EQ(s.ok(), MegatronAccepts(P, M, g)) << Label("interleaved", p);
        if (!s.ok()) {
          EXPECT_EQ(s.error().code, ErrorCode::kPrecondition) << Label("interleaved", p);
        }
      }
  Problem p = Sized(4, 9, 2, 3);
  EXPECT_EQ(Generate("interleaved", p).error().Text(),
            "group 3: interleaved: the number of contiguous microbatches in a virtual pipeline stage (Megatron's "
            "microbatch_group_size_per_vp_stage) must lie in [P = 4, M = 9]");
  p = Sized(4, 10, 2, 4);
  EXPECT_EQ(Generate("interleaved", p).error().Text(),
            "group 4: interleaved: M mod group must be 0 or at least P = 4, but M = 10 leaves a last group of 2 "
            "(Megatron refuses it: a shorter last group leaves dependency bubbles)");
  p = Sized(4, 8, 1, 4);
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(s.error().field, "group");
  EXPECT_EQ(s.error().Text().rfind("group applies only to interleaved", 0), 0u) << s.error().Text();
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// Narayanan et al.'s bubble (P-1)/(vM) holds for every group Megatron accepts.
TEST(MegatronOrders, EveryAcceptedGroupHasTheInterleavedBubble) {
  int checked = 0;
  for (int P = 2; P <= 8; ++P)
    for (int v = 2; v <= 3; ++v)
      for (int M = P; M <= 3 * P + 3; ++M)
        for (int g = P; g <= M; ++g)
          for (Tick F : {1, 2})
            for (Tick B : {1, 3}) {
              if (!MegatronAccepts(P, M, g)) continue;
              Problem p = Sized(P, M, v, g);
              p.costs.f = {F};
              p.costs.bw = {B};
              Result<Timeline> t = Simulate("interleaved", p);
              ASSERT_TRUE(t.ok()) << Label("interleaved", p);
              const Metrics m = Measure(*t);
              EXPECT_EQ(m.makespan, (v * M + P - 1) * (F + B)) << Label("interleaved", p) << " F=" << F << " B=" << B;
              ++checked;
            }
  EXPECT_GT(checked, 300);
}

}  // namespace
}  // namespace ppsim

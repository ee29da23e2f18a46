// V-Half and V-Min: ppsim's order equals the Zero Bubble team's greedy
// generator (zbv_greedy.py) op for op on every public entry, and keeps the
// memory that generator promises at every size.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/peer_order.h"
#include "ppsim/closed_forms.h"
#include "ppsim/generators.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

void ExpectPeerOrders(const std::string& peer, const std::string& name) {
  const std::vector<nlohmann::json> entries = testing::PeerEntries(peer);
  ASSERT_FALSE(entries.empty()) << "no public entry for " << peer;
  int compared = 0;
  for (const nlohmann::json& e : entries) {
    if (e.at("schedule") != peer) continue;
    ++compared;
    Problem p;
    p.P = e.at("P");
    p.M = e.at("M");
    const std::string label = name + " P=" + std::to_string(p.P) + " M=" + std::to_string(p.M);
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label;
    testing::ExpectRecordedOrders(e, p, *s, label);
  }
  EXPECT_GT(compared, 0) << peer;
}

TEST(VShapeOrders, VHalfEqualsZeroBubbleGreedy) { ExpectPeerOrders("V-Half", "v-half"); }
TEST(VShapeOrders, VMinEqualsZeroBubbleGreedy) { ExpectPeerOrders("V-Min", "v-min"); }

// The paper's memory (Qi et al. 2024, and the authors' summary table):
// V-Half holds ⌊(P+2)/2⌋ microbatches, V-Min ⌊(P+4)/3⌋, on the fullest
// device, counted from a forward's start to its W's end. ppsim measures
// chunk sets, two per microbatch, at every P and every M ≥ P.
TEST(VShapeOrders, FullestDeviceHoldsThePapersMemory) {
  int checked = 0;
  for (const char* name : {"v-half", "v-min"})
    for (int P = 1; P <= 8; ++P)
      for (int M = 1; M <= 4 * P + 1; ++M) {
        Problem p;
        p.P = P;
        p.M = M;
        p.hold = HoldMode::kResident;
        Result<Timeline> t = Simulate(name, p);
        ASSERT_TRUE(t.ok()) << name << ": " << t.error().message;
        const std::vector<std::int64_t> peaks = Measure(*t).activations.peak_per_device;
        const Prediction pred = Predict(name, t->problem);
        ASSERT_TRUE(pred.peak_max.has_value()) << name;
        const std::int64_t most = *std::max_element(peaks.begin(), peaks.end());
        if (M >= P) {
          EXPECT_EQ(most, *pred.peak_max) << name << " P=" << P << " M=" << M;
          ++checked;
        } else {
          EXPECT_LE(most, *pred.peak_max) << name << " P=" << P << " M=" << M;
        }
      }
  EXPECT_GT(checked, 200);
}

// The greedy's time grows faster than P·M: beyond its limits a size is
// refused before anything is allocated, with the limit named (exit 6).
TEST(VShapeOrders, RefusesSizesBeyondTheGreedysLimits) {
  for (const char* name : {"v-half", "v-min"}) {
    Problem p;
    p.P = 4;
    p.M = 65537;  // P·M = 262148
    Result<Schedule> s = Generate(name, p);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.error().code, ErrorCode::kTooLarge) << name;
    EXPECT_EQ(s.error().message, std::string(name) +
                                     ": P·M = 262148 exceeds the limit 262144 for the Zero Bubble team's greedy order "
                                     "(refused before allocating; docs/schedules.md)");
    p.P = 257;
    p.M = 4;
    s = Generate(name, p);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.error().code, ErrorCode::kTooLarge) << name;
    EXPECT_NE(s.error().message.find("P = 257 exceeds the limit 256"), std::string::npos) << s.error().message;
  }
  Problem p;  // the same sizes stay open to schedules without the greedy
  p.P = 4;
  p.M = 65537;
  EXPECT_TRUE(Generate("zbv", p).ok());
}

}  // namespace
}  // namespace ppsim

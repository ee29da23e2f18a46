// DeepSeek's DualPipe and DualPipeV as DeepSeek's own code runs them: every
// entry of tests/data/peers_public.json recorded from deepseek-ai/DualPipe
// must equal ppsim's order op for op on every rank — which ops are
// overlapped pairs, which backwards are full (B) and which split (I, W).
// "no overlapped_forward_backward" entries are ppsim's --no-overlap.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "core/peer_order.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

TEST(Conformance, DeepSeekDualPipeOrdersPublic) {
  std::map<std::string, int> checked;
  for (const nlohmann::json& e : testing::DataEntries("peers_public.json")) {
    const std::string source = e.at("source"), schedule = e.at("schedule");
    if (source.rfind("deepseek-ai/DualPipe ", 0) != 0) continue;
    const std::string name = schedule.rfind("DualPipeV ", 0) == 0 ? "dualpipev" : "dualpipe";
    Problem p;
    p.P = e.at("P");
    p.M = e.at("M");
    p.overlap = schedule.find("no overlapped_forward_backward") == std::string::npos;
    const std::string label = name + " P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) +
                              (p.overlap ? "" : " --no-overlap");
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label << ": " << CheckComplete(p, *s).message;
    EXPECT_EQ(p.v, e.at("v").get<int>()) << label;
    testing::ExpectRecordedOrders(e, p, *s, label);
    ++checked[label.substr(0, label.find(' ')) + (p.overlap ? "" : " --no-overlap")];
  }
  for (const char* what : {"dualpipe", "dualpipev", "dualpipev --no-overlap"}) EXPECT_GT(checked[what], 0) << what;
}

}  // namespace
}  // namespace ppsim

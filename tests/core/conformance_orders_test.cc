// Every entry of tests/data/pytorch_orders_public.json: PyTorch's
// per-rank order for a schedule and size must equal ours, op for op.
//
// PyTorch writes ops as <kind><microbatch>s<stage> with kinds F, B (full
// backward), I (input gradient) and W, and "(a;b)OVERLAP_F_B" for an
// overlapped pair: ppsim's full backward (Slot::full) is its B, the
// input-gradient pass of a split schedule its I (peer_order.h).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "core/peer_order.h"
#include "ppsim/generators.h"

namespace ppsim {
namespace {

const std::map<std::string, std::string>& PyTorchNames() {
  static const std::map<std::string, std::string> names = {
      {"ScheduleGPipe", "gpipe"},          {"Schedule1F1B", "1f1b"},
      {"ScheduleInterleaved1F1B", "interleaved"}, {"ScheduleLoopedBFS", "looped-bfs"},
      {"ScheduleInterleavedZeroBubble", "zb1p"},  {"ScheduleZBVZeroBubble", "zbv"},
      {"ScheduleDualPipeV", "dualpipev"}};
  return names;
}

TEST(Conformance, PyTorchOrdersPublic) {
  const std::vector<nlohmann::json> entries = testing::DataEntries("pytorch_orders_public.json");
  ASSERT_GT(entries.size(), 0u);
  std::map<std::string, int> checked;
  for (const nlohmann::json& e : entries) {
    const std::string pytorch = e.at("schedule");
    ASSERT_TRUE(PyTorchNames().count(pytorch)) << "no ppsim schedule for " << pytorch;
    const std::string name = PyTorchNames().at(pytorch);
    Problem p;
    p.P = e.at("P");
    p.M = e.at("M");
    p.v = e.at("v");
    const std::string label = name + " P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) +
                              " v=" + std::to_string(p.v);
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label << ": " << CheckComplete(p, *s).message;
    testing::ExpectRecordedOrders(e, p, *s, label, "stage_to_rank");
    ++checked[name];
  }
  // The public file covers these five; a new entry with a known name is checked too.
  for (const char* name : {"gpipe", "1f1b", "interleaved", "zbv", "dualpipev"}) EXPECT_GT(checked[name], 0) << name;
}

}  // namespace
}  // namespace ppsim

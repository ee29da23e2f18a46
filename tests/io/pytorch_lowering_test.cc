// PyTorch's runtime lowering (UNSHARD/RESHARD, REDUCE_GRAD, SEND/RECV) and
// its compute_comms CSV, against the order and the bytes recorded from
// PyTorch's own code (tests/data/pytorch_comms_public.json).
#include "ppsim/io/pytorch_lowering.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsim/generators.h"

namespace ppsim {
namespace {

using io::PtAction;
using io::PtType;

nlohmann::json Entry(const std::string& schedule) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_comms_public.json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str());
  for (const nlohmann::json& e : doc["entries"])
    if (e["schedule"] == schedule) return e;
  ADD_FAILURE() << "no entry " << schedule;
  return {};
}

// A compute action string as PyTorch writes it ("0F3", "2B1").
PtAction Compute(const std::string& s) {
  const size_t k = s.find_first_of("FIWB");
  const char c = s[k];
  const PtType t = c == 'F' ? PtType::kF : c == 'I' ? PtType::kI : c == 'W' ? PtType::kW : PtType::kB;
  return {std::stoi(s.substr(0, k)), t, std::stoi(s.substr(k + 1)), {}};
}

TEST(PytorchLowering, Interleaved1F1BEqualsPytorchsRuntimeOrder) {
  const nlohmann::json e = Entry("ScheduleInterleaved1F1B");
  std::vector<std::vector<PtAction>> compute;
  for (const nlohmann::json& rank : e["compute"]) {
    compute.emplace_back();
    for (const nlohmann::json& a : rank)
      if (!a.is_null()) compute.back().push_back(Compute(a.get<std::string>()));
  }
  Result<std::vector<std::vector<PtAction>>> lowered =
      io::LowerWithComms(compute, e["stage_to_rank"].get<std::vector<int>>(), e["M"].get<int>());
  ASSERT_TRUE(lowered.ok()) << lowered.error().Text();
  const nlohmann::json& expected = e["comms"];
  ASSERT_EQ(lowered->size(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    std::vector<std::string> got;
    for (const PtAction& a : (*lowered)[r]) got.push_back(io::PtActionText(a));
    EXPECT_EQ(got, expected[r].get<std::vector<std::string>>()) << "rank " << r;
  }
}

TEST(PytorchLowering, ExportIsPytorchsComputeCommsCsvByteForByte) {
  // ppsim's own interleaved order (equal to PyTorch's, tests/core) lowered and
  // written as PyTorch's _dump_csv(format="compute_comms") writes it.
  const nlohmann::json e = Entry("ScheduleInterleaved1F1B");
  Problem p;
  p.P = 2;
  p.v = 2;
  p.M = 4;
  Result<Schedule> s = Generate("interleaved", p);
  ASSERT_TRUE(s.ok()) << s.error().Text();
  Result<std::string> csv = io::WritePytorchCommsCsv(p, *s);
  ASSERT_TRUE(csv.ok()) << csv.error().Text();
  EXPECT_EQ(*csv, e["csv_compute_comms"].get<std::string>());
}

TEST(PytorchLowering, NoCommBetweenStagesOnOneRank) {
  // ZB-V's turn of the V (stages 1 and 2 on rank 1 at P = 2): no SEND or RECV
  // between them, and each stage's REDUCE_GRAD follows its last backward.
  Problem p;
  p.P = 2;
  p.M = 2;
  p.v = 2;
  p.placement = Placement::kVShape;
  Result<Schedule> s = Generate("zbv", p);
  ASSERT_TRUE(s.ok()) << s.error().Text();
  Result<std::string> csv = io::WritePytorchCommsCsv(p, *s);
  ASSERT_TRUE(csv.ok()) << csv.error().Text();
  EXPECT_EQ(csv->find(",1SEND_F"), std::string::npos) << *csv;  // 1F -> 2F stays on rank 1
  EXPECT_EQ(csv->find(",2RECV_F"), std::string::npos) << *csv;
  EXPECT_NE(csv->find("0SEND_F0"), std::string::npos) << *csv;
  EXPECT_NE(csv->find("2SEND_F0"), std::string::npos) << *csv;  // 2F -> 3F crosses back to rank 0
  EXPECT_NE(csv->find("3REDUCE_GRAD"), std::string::npos) << *csv;
}

TEST(PytorchLowering, AnOrderThatCannotBeLoweredNamesEachRanksWaitingAction) {
  // Each rank's first action needs the other's output: PyTorch's "Malformed
  // compute schedule", here naming what each rank waits to place.
  std::vector<std::vector<PtAction>> compute = {{{0, PtType::kB, 0, {}}, {0, PtType::kF, 0, {}}},
                                                {{1, PtType::kF, 0, {}}, {1, PtType::kB, 0, {}}}};
  Result<std::vector<std::vector<PtAction>>> lowered = io::LowerWithComms(compute, {0, 1}, 1);
  ASSERT_FALSE(lowered.ok());
  EXPECT_EQ(lowered.error().code, ErrorCode::kDeadlock);
  EXPECT_NE(lowered.error().message.find("rank 0 waits to place 0B0; rank 1 waits to place 1F0"), std::string::npos)
      << lowered.error().message;
}

}  // namespace
}  // namespace ppsim

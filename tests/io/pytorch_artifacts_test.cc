// PyTorch's own test artifacts (tests/data/pytorch_artifacts/, from
// test/distributed/pipelining/artifacts/): read, simulated, and written back
// byte for byte but for the line ends (the stored files have LF; PyTorch's
// csv.writer, and ppsim, write CRLF).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/pytorch_program.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

std::string Artifact(const std::string& name) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_artifacts/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Crlf(const std::string& lf) {
  std::string out;
  for (char c : lf) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

TEST(PytorchArtifacts, Zb1pComputeCommsReadSimulatedAndWrittenBack) {
  const std::string text = Artifact("zb1p_2rank_2stagep_comms.csv");
  ASSERT_FALSE(text.empty());
  Result<io::PytorchCsv> cells = io::ParsePytorchCsv(text, "zb1p.csv");
  ASSERT_TRUE(cells.ok()) << cells.error().Text();
  Result<io::ImportedSchedule> r = io::ScheduleFromPytorchCsv(*cells, "zb1p.csv");
  ASSERT_TRUE(r.ok()) << r.error().Text();
  EXPECT_EQ(r->problem.P, 2);
  EXPECT_EQ(r->problem.v, 2);
  EXPECT_EQ(r->problem.M, 8);
  EXPECT_EQ(r->problem.placement, Placement::kLoop);
  EXPECT_TRUE(r->schedule.split_backward);  // I and W on ranks 1 and 3, full B on 0 and 2
  ASSERT_TRUE(r->comms.has_value());
  // Its own communication, action for action, in PyTorch's bytes.
  EXPECT_EQ(io::FormatPytorchCsv(io::CsvFromProgram(r->schedule, *r->comms)), Crlf(text));
  EXPECT_EQ(io::FormatPytorchCsv(*cells), Crlf(text));
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_TRUE(t.ok()) << t.error().Text();
}

TEST(PytorchArtifacts, DualPipeVReadSimulatedAndWrittenBack) {
  const std::string text = Artifact("dualpipev_4rank_10mb.csv");
  ASSERT_FALSE(text.empty());
  Result<io::ImportedSchedule> r = io::ReadPytorchCsv(text, "dualpipev.csv");
  ASSERT_TRUE(r.ok()) << r.error().Text();
  EXPECT_EQ(r->problem.P, 4);
  EXPECT_EQ(r->problem.M, 10);
  EXPECT_EQ(r->problem.placement, Placement::kVShape);
  EXPECT_FALSE(r->comms.has_value());
  EXPECT_EQ(*io::WritePytorchCsv(r->schedule), Crlf(text));
  Result<Timeline> t = Place(r->problem, r->schedule);
  ASSERT_TRUE(t.ok()) << t.error().Text();
}

}  // namespace
}  // namespace ppsim

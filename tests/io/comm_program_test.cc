// Core's PyTorch lowering (comm_lowering.h), which simulate --comms runs and
// --export pytorch-comms-csv writes, for the public case: PyTorch's own
// bytes, and read back, the same program.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppsim/comm_lowering.h"
#include "ppsim/generators.h"
#include "ppsim/io/pytorch_program.h"

namespace ppsim {
namespace {

std::string CoreCsv(const Problem& p, const Schedule& s) {
  Result<CommProgram> program = LowerPytorch(p, s);
  EXPECT_TRUE(program) << program.error().Text();
  return program ? io::FormatPytorchCsv(io::CsvFromProgram(s, *program)) : "";
}

TEST(CommProgram, PublicCaseBytes) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_comms_public.json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str());
  for (const nlohmann::json& e : doc["entries"]) {
    if (e["csv_compute_comms"].is_null()) continue;
    Problem p;
    p.P = e["P"];
    p.M = e["M"];
    p.v = e["v"];
    Result<Schedule> s = Generate("interleaved", p);
    ASSERT_TRUE(s);
    EXPECT_EQ(CoreCsv(p, *s), e["csv_compute_comms"].get<std::string>());
    // Read back, the file's program is the one lowered.
    Result<io::ImportedSchedule> read = io::ReadPytorchCsv(e["csv_compute_comms"].get<std::string>(), "public.csv");
    ASSERT_TRUE(read) << read.error().Text();
    ASSERT_TRUE(read->comms);
    EXPECT_EQ(io::FormatPytorchCsv(io::CsvFromProgram(read->schedule, *read->comms)),
              e["csv_compute_comms"].get<std::string>());
  }
}

}  // namespace
}  // namespace ppsim

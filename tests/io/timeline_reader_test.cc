// The timeline reader (validate, --schedule-file JSON): reads what simulate
// writes, and refuses bad numbers and absurd sizes with one line naming the
// field, before allocating anything sized by them.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/generators.h"
#include "ppsim/io/json_out.h"
#include "ppsim/simulate.h"
#include "ppsim/io/simulation_json.h"
#include "ppsim/io/timeline_json.h"

namespace ppsim {
namespace {

Error ParseError(const std::string& text) {
  Result<TimelineToCheck> r = io::ParseTimelineJson(text, "t.json");
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? Error::Ok() : r.error();
}

const std::string kOp = R"({"device":0,"stage":0,"kind":"F","microbatch":0,"start":0,"end":1})";

TEST(TimelineReader, ReadsBackEveryOpSimulateWrites) {
  for (const GeneratorInfo& g : Generators()) {
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = g.name == "combined-1f1b" ? 2 : 1;  // Megatron: chunks ≥ 2 when P > 1
    p.comm = 1;
    Result<Timeline> t = Simulate(g.name, p);
    ASSERT_TRUE(t.ok()) << g.name;
    std::string text;
    io::JsonOut out(io::AppendTo(text));
    io::WriteSimulationJson(out, *t, Measure(*t), true);
    out.Finish();
    Result<TimelineToCheck> r = io::ParseTimelineJson(text, "t.json");
    ASSERT_TRUE(r.ok()) << g.name << ": " << r.error().message;
    EXPECT_EQ(r->ops, t->Ops()) << g.name;
    EXPECT_EQ(r->P, p.P);
    EXPECT_EQ(r->S, t->problem.stages());
    EXPECT_EQ(r->comm, t->problem.comm);  // in ticks: 2 for zbv/dualpipev (1 tick = 1/2 unit)
    ASSERT_TRUE(r->placement.has_value());
    EXPECT_EQ(*r->placement, t->problem.placement);
  }
}

TEST(TimelineReader, NumbersOutsideInt64AreErrorsNamingTheField) {
  Error e = ParseError(R"({"ops":[{"device":0,"stage":0,"kind":"F","microbatch":0,"start":9223372036854775808,"end":1}]})");
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.message, "t.json: ops[0].start: 9223372036854775808 is outside the int64 range");
  e = ParseError(R"({"makespan":-99999999999999999999999,"ops":[]})");
  EXPECT_EQ(e.message, "t.json: makespan: -99999999999999999999999 is outside the int64 range");
  e = ParseError(R"({"bubble_ratio":1e999,"ops":[]})");
  EXPECT_EQ(e.message, "t.json: bubble_ratio: 1e999 is outside the range of a number");
  // The extremes themselves are fine.
  EXPECT_TRUE(io::ParseTimelineJson(R"({"x":[-9223372036854775808,9223372036854775807],"ops":[]})", "t").ok());
}

TEST(TimelineReader, SizesAreCheckedAgainstTheLimitsFirst) {
  EXPECT_EQ(ParseError(R"({"P":-1,"ops":[]})").message, "t.json: P must be ≥ 1, got -1");
  EXPECT_EQ(ParseError(R"({"M":-1,"ops":[]})").message, "t.json: M must be ≥ 1, got -1");
  EXPECT_EQ(ParseError(R"({"stages":-1,"ops":[]})").message, "t.json: stages must be ≥ 1, got -1");
  EXPECT_EQ(ParseError(R"({"P":3e9,"ops":[]})").message, "t.json: P: expected an integer, got 3e9");
  Error e = ParseError(R"({"P":3000000000,"ops":[]})");
  EXPECT_EQ(e.code, ErrorCode::kTooLarge);
  EXPECT_EQ(e.message, "t.json: P: 3000000000 exceeds the limit 4096");
  EXPECT_EQ(ParseError(R"({"P":2147483647,"ops":[]})").code, ErrorCode::kTooLarge);
  e = ParseError(R"({"stages":60000000,"M":1,"ops":[]})");
  EXPECT_EQ(e.code, ErrorCode::kTooLarge);
  EXPECT_EQ(e.message, "t.json: stages: 60000000 exceeds the limit 262144");
  e = ParseError(R"({"M":1048576,"stages":262144,"ops":[]})");
  EXPECT_EQ(e.code, ErrorCode::kTooLarge);
  EXPECT_NE(e.message.find("exceeds the limit 66666666 (refused before allocating)"), std::string::npos) << e.message;
}

TEST(TimelineReader, EmptyCostListIsAnError) {
  const Error e = ParseError(R"({"costs":{"F":[]},"ops":[)" + kOp + "]}");
  EXPECT_EQ(e.code, ErrorCode::kParse);
  EXPECT_EQ(e.message, "t.json: costs.F: expected an integer or a non-empty list of integers");
}

TEST(TimelineReader, SyntaxErrorsGiveLineAndColumn) {
  const Error e = ParseError("{\n  \"ops\": [\n    {\"device\": 0,,}\n  ]\n}\n");
  EXPECT_EQ(e.code, ErrorCode::kParse);
  EXPECT_EQ(e.message, "t.json:3:18: invalid JSON: expected '\"', got ','");
  EXPECT_EQ(ParseError("[" + kOp + "] x").message.rfind("t.json:1:", 0), 0u);
  EXPECT_EQ(ParseError(std::string(100000, '[')).code, ErrorCode::kParse);  // depth-capped, no stack overflow
}

}  // namespace
}  // namespace ppsim

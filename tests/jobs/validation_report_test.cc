// What `ppsim validate` says about a timeline: ok with its op count and
// makespan, or the violations (at most as many as asked) and the first named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/timeline_to_check.h"
#include "ppsim/jobs/validation_report.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

TimelineToCheck OneFOneB() {
  Problem p;
  p.P = 4;
  p.M = 6;
  Result<Timeline> t = Simulate("1f1b", p);
  EXPECT_TRUE(t.ok());
  return ToCheck(*t);
}

TEST(ValidationReport, ALegalTimelineIsOkWithItsMakespan) {
  const TimelineToCheck t = OneFOneB();
  const jobs::ValidationReport r = jobs::ReportValidation(t, ValidateTimeline(t), "t.json", 10);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.text, "ok: 48 ops, legal and tight, makespan 18\n");
  EXPECT_EQ(r.listed, "");
  EXPECT_EQ(r.json, R"({"makespan":18,"ok":true,"ops":48,"violations":[]})");
}

TEST(ValidationReport, ViolationsAreListedUpToTheLimitAndTheFirstNamed) {
  TimelineToCheck t = OneFOneB();
  t.ops.resize(t.ops.size() - 5);  // five ops missing
  const std::vector<Violation> violations = ValidateTimeline(t);
  ASSERT_GT(violations.size(), 2u);
  const jobs::ValidationReport r = jobs::ReportValidation(t, violations, "t.json", 2);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.text, "");
  EXPECT_EQ(r.listed, violations[0].rule + ": " + violations[0].message + "\n" + violations[1].rule + ": " +
                          violations[1].message + "\n... and " + std::to_string(violations.size() - 2) + " more\n");
  EXPECT_EQ(r.verdict, "t.json: " + std::to_string(violations.size()) + " violation(s); first: " + violations[0].message);
  const nlohmann::json j = nlohmann::json::parse(r.json);
  EXPECT_EQ(j["ops"], 43);
  EXPECT_EQ(j["violations"].size(), violations.size());
  EXPECT_EQ(j["violations"][0]["message"], violations[0].message);
}

}  // namespace
}  // namespace ppsim

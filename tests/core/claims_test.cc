// The claim language: parsing (with columns), exact evaluation, divergence.
#include <gtest/gtest.h>

#include <algorithm>

#include "ppsim/claim_template.h"
#include "ppsim/claims.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

Run MakeRun(const char* name, const char* schedule, int P, int M, Tick comm = 0) {
  Problem p;
  p.P = P;
  p.M = M;
  p.comm = comm;
  Result<Timeline> t = Simulate(schedule, p);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return Measured(name, std::move(*t));
}

class ClaimsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    runs_.push_back(MakeRun("GPipe", "gpipe", 4, 6));
    runs_.push_back(MakeRun("1F1B", "1f1b", 4, 6));
    params_ = ProblemParams(runs_[0].timeline.problem);
  }
  bool Holds(const std::string& check) {
    Result<ClaimResult> r = CheckClaim(check, runs_, params_);
    EXPECT_TRUE(r.ok()) << check << ": " << r.error().message;
    return r.ok() && r->holds;
  }
  // The column and message of a claim that must not parse.
  std::pair<int, std::string> ParseError(const std::string& check) {
    Result<Claim> c = ParseClaim(check);
    EXPECT_FALSE(c.ok()) << check;
    if (c.ok()) return {0, ""};
    EXPECT_EQ(c.error().code, ErrorCode::kParse);
    const int column = c.error().column;
    EXPECT_EQ(c.error().Text(), "column " + std::to_string(column) + ": " + c.error().message);
    return {column, c.error().message};
  }
  std::vector<ppsim::Run> runs_;
  Params params_;
};

TEST_F(ClaimsTest, TheCanonicalClaimsHold) {
  EXPECT_TRUE(Holds("makespan(GPipe) == makespan(1F1B)"));
  EXPECT_TRUE(Holds("idle(GPipe) == idle(1F1B)"));
  EXPECT_TRUE(Holds("peak(GPipe) > peak(1F1B)"));
  EXPECT_TRUE(Holds("makespan(GPipe) == 2*(M+P-1)"));
  EXPECT_TRUE(Holds("idle(1F1B) == 2*P*(P-1)"));
  EXPECT_TRUE(Holds("peak(GPipe) == 23 and peak(1F1B) == 9"));
  EXPECT_TRUE(Holds("peak(GPipe, 0) == M and peak(1F1B, 0) == P and peak(1F1B, P-1) == 0"));
  EXPECT_TRUE(Holds("busy(GPipe) == 2*P*M"));
  EXPECT_TRUE(Holds("transfers(GPipe) == 2*M*(P-1)"));
  EXPECT_FALSE(Holds("not (peak(GPipe) > peak(1F1B)) or makespan(GPipe) != 18"));
}

TEST_F(ClaimsTest, ArithmeticIsExact) {
  // bubble_ratio = idle / busy = 24/48 exactly (P-1)/M = 3/6.
  EXPECT_TRUE(Holds("bubble_ratio(GPipe) == (P-1)/M"));
  EXPECT_TRUE(Holds("bubble_fraction(1F1B) == (P-1)/(M+P-1)"));
  EXPECT_TRUE(Holds("0.1 + 0.2 == 0.3"));
  EXPECT_TRUE(Holds("1/3 * 3 == 1"));
  EXPECT_FALSE(Holds("1/3 == 0.333333333333333333"));
  EXPECT_TRUE(Holds("bubble_ratio(GPipe) == 0.5"));
  EXPECT_TRUE(Holds("-P + 4 == 0 and 7 / 2 > 3"));
}

TEST_F(ClaimsTest, RoundingAndMinMax) {
  EXPECT_TRUE(Holds("floor(7/2) == 3 and ceil(7/2) == 4 and floor(-7/2) == -4 and ceil(-7/2) == -3"));
  EXPECT_TRUE(Holds("floor(4) == 4 and ceil(4) == 4"));
  EXPECT_TRUE(Holds("min(peak(GPipe), peak(1F1B)) == 9 and max(P, M) == 6"));
  EXPECT_EQ(ParseError("min(P) > 0").first, 6);
  EXPECT_EQ(ParseError("floor(P > 1) > 0").first, 9);  // a comparison is not an argument
}

TEST_F(ClaimsTest, AndOrShortCircuit) {
  // comm is 0: the division is never evaluated.
  EXPECT_TRUE(Holds("comm == 0 or idle(GPipe) / comm > 1"));
  EXPECT_FALSE(Holds("comm > 0 and idle(GPipe) / comm > 1"));
  Result<ClaimResult> r = CheckClaim("comm != 0 and idle(GPipe) / comm > 1", runs_, params_);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->values.size(), 1u);  // only what was evaluated
  EXPECT_EQ(r->values[0].name, "comm");
  EXPECT_FALSE(CheckClaim("comm == 1 or idle(GPipe) / comm > 1", runs_, params_).ok());  // division by zero
}

TEST_F(ClaimsTest, ATypoOnASkippedSideIsStillAnUnknownName) {
  // The left side is false, so `and` never evaluates peak(typo); the claim
  // names two runs, so a false verdict would compare both (found by fuzzing:
  // this read a run that does not exist).
  Result<ClaimResult> r = CheckClaim("makespan(1F1B) == 0 and peak(typo) > 1", runs_, params_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnknownName);
  EXPECT_NE(r.error().message.find("no run named 'typo' (runs: GPipe, 1F1B)"), std::string::npos)
      << r.error().message;
  r = CheckClaim("makespan(GPipe) > 0 or idle(GPipe) > Q", runs_, params_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnknownName);
}

TEST_F(ClaimsTest, UnicodeOperatorsMeanTheirAsciiTwins) {
  EXPECT_TRUE(Holds("makespan(GPipe) \u2212 1 \u2265 17 and 2 \u00d7 3 \u2264 6 and 6 \u00f7 4 \u2260 1"));
}

TEST_F(ClaimsTest, ValuesListEveryMetricAndBothSides) {
  Result<ClaimResult> r = CheckClaim("bubble_ratio(GPipe) == (P-1)/M", runs_, params_);
  ASSERT_TRUE(r.ok());
  std::vector<std::string> names;
  for (const NamedValue& v : r->values) names.push_back(v.name + "=" + v.value.ToString());
  EXPECT_EQ(names, (std::vector<std::string>{"bubble_ratio(GPipe)=1/2", "P=4", "M=6", "(P-1)/M=1/2"}));
}

TEST_F(ClaimsTest, MalformedClaimsPointAtTheColumn) {
  EXPECT_EQ(ParseError("makespan(GPipe) = 18").first, 17);        // '=' for '=='
  EXPECT_EQ(ParseError("makespan(GPipe").first, 15);              // missing ')'
  EXPECT_EQ(ParseError("peak(GPipe) > ").first, 15);              // ends after an operator
  EXPECT_EQ(ParseError("idle(GPipe) and 3 > 1").first, 13);       // 'and' on a number
  EXPECT_EQ(ParseError("1 < 2 < 3").first, 7);                    // chained comparison
  EXPECT_EQ(ParseError("makespan(GPipe, 1) > 0").first, 15);      // makespan takes one argument
  EXPECT_EQ(ParseError("size(GPipe) > 0").first, 1);              // unknown function
  EXPECT_EQ(ParseError("makespan(GPipe) + 1").first, 1);          // a number, not a claim
  EXPECT_EQ(ParseError("makespan() > 1").first, 10);              // no run
  EXPECT_EQ(ParseError("(P > 1").first, 7);                       // unclosed '('
  EXPECT_EQ(ParseError("P > 1)").first, 6);                       // stray ')'
  EXPECT_EQ(ParseError("P \u2212 1 \u2265 # 1").first, 9);        // columns count characters, not bytes
  EXPECT_EQ(ParseError("").first, 1);
  EXPECT_NE(ParseError("makespan(GPipe) = 18").second.find("'=='"), std::string::npos);
  EXPECT_NE(ParseError("size(GPipe) > 0").second.find("makespan"), std::string::npos);  // lists the known ones
}

TEST_F(ClaimsTest, UnknownNamesAndBadValuesAreErrorsWithColumns) {
  Result<ClaimResult> r = CheckClaim("makespan(GPipe) == makespan(ZB)", runs_, params_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnknownName);
  EXPECT_EQ(r.error().column, 29);
  EXPECT_NE(r.error().message.find("runs: GPipe, 1F1B"), std::string::npos) << r.error().message;

  r = CheckClaim("Q > 1", runs_, params_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUnknownName);
  EXPECT_EQ(r.error().column, 1);

  r = CheckClaim("peak(GPipe, 4) > 0", runs_, params_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidValue);
  EXPECT_EQ(r.error().column, 13);

  r = CheckClaim("idle(GPipe) / (P - 4) > 0", runs_, params_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidValue);
  EXPECT_NE(r.error().message.find("division by zero"), std::string::npos);
}

TEST_F(ClaimsTest, QuotedAndDigitLeadingRunNames) {
  EXPECT_TRUE(Holds("makespan(\"1F1B\") == makespan( 1F1B )"));
}

// Number of ops completed by tick t, counted the slow way.
std::int64_t DoneBy(const Run& r, Tick t) {
  std::int64_t n = 0;
  for (const PlacedOp& op : r.timeline.Ops()) n += op.end <= t;
  return n;
}

TEST(Divergence, IsTheFirstTickWhereCompletedOpCountsDiffer) {
  for (Tick comm : {0, 1, 3}) {
    const ppsim::Run a = MakeRun("GPipe", "gpipe", 4, 6, comm), b = MakeRun("1F1B", "1f1b", 4, 6, comm);
    const std::optional<Divergence> d = FirstDivergence(a, b);
    ASSERT_TRUE(d.has_value());
    Tick first = 0;
    while (DoneBy(a, first) == DoneBy(b, first)) ++first;
    EXPECT_EQ(d->tick, first);
    const bool a_ahead = DoneBy(a, first) > DoneBy(b, first);
    EXPECT_EQ(d->ahead, a_ahead ? "GPipe" : "1F1B");
    EXPECT_EQ(d->ahead_done, std::max(DoneBy(a, first), DoneBy(b, first)));
    EXPECT_EQ(d->behind_done, std::min(DoneBy(a, first), DoneBy(b, first)));
  }
  // Identical timelines never diverge.
  const ppsim::Run a = MakeRun("A", "1f1b", 3, 5), b = MakeRun("B", "1f1b", 3, 5);
  EXPECT_FALSE(FirstDivergence(a, b).has_value());
}

TEST(Divergence, AFalseComparisonOfTwoRunsReportsIt) {
  std::vector<ppsim::Run> runs{MakeRun("GPipe", "gpipe", 4, 6, 1), MakeRun("1F1B", "1f1b", 4, 6, 1)};
  Result<ClaimResult> r = CheckClaim("makespan(GPipe) == makespan(1F1B)", runs, ProblemParams(runs[0].timeline.problem));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->holds);
  ASSERT_TRUE(r->divergence.has_value());
  EXPECT_EQ(r->Explain(),
            "makespan(GPipe) == makespan(1F1B) is false: makespan(GPipe) = 24, makespan(1F1B) = 30; first tick "
            "where one run is ahead: 5 (GPipe has completed 9 ops, 1F1B 8)");
}

TEST_F(ClaimsTest, TemplatesFillFromTheRuns) {
  Result<std::string> s = FillTemplate(
      "same finish: {makespan(GPipe)} cycles · bubble {bubble_ratio(1F1B)} · {{literal}} · {peak(GPipe) > 9}", runs_,
      params_);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(*s, "same finish: 18 cycles · bubble 0.5 · {literal} · true");
  EXPECT_EQ(*FillTemplate("{idle(GPipe) / 9}", runs_, params_), "8/3");

  Result<std::vector<TemplatePiece>> bad = ParseTemplate("ok {makespan(GPipe} x");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().column, 19);
  EXPECT_EQ(bad.error().Text().rfind("column 19: in '{makespan(GPipe}': ", 0), 0u) << bad.error().Text();
  bad = ParseTemplate("ok {makespan(GPipe)");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().column, 4);
  bad = ParseTemplate("a } b");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().column, 3);
}

}  // namespace
}  // namespace ppsim

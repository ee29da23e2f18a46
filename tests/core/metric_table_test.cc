// One metric table (metric_table.h): claims read it, docs/claims.md lists it,
// and every text output prints a value the one way.
#include "ppsim/metric_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ppsim/simulate.h"

namespace ppsim {
namespace {

TEST(MetricTable, ReadsTheCanonicalExampleExactly) {
  Problem p;  // P = 4, M = 6, unit costs
  Result<Timeline> t = Simulate("gpipe", p);
  ASSERT_TRUE(t.ok());
  const Metrics m = Measure(*t);
  auto value = [&](const char* name, int device = -1) {
    return FindMetric(name)->value(m, t->problem, device)->ToText();
  };
  EXPECT_EQ(value("makespan"), "18");
  EXPECT_EQ(value("idle"), "24");
  EXPECT_EQ(value("bubble_ratio"), "1/2 (0.5000)");
  EXPECT_EQ(value("bubble_fraction"), "1/3 (0.3333)");
  EXPECT_EQ(value("peak"), "23");
  EXPECT_EQ(value("peak_sets", 0), std::to_string(m.peak_activations_per_device[0]));
  EXPECT_EQ(FindMetric("size"), nullptr);
}

TEST(MetricTable, OneWayToPrintARational) {
  EXPECT_EQ(Rational(18).ToText(), "18");
  EXPECT_EQ(Rational::Of(2, 3)->ToText(), "2/3 (0.6667)");
  EXPECT_EQ(Rational::Of(-1, 8)->ToText(), "-1/8 (-0.1250)");
  EXPECT_EQ(Rational::Of(1, 3)->ToFixed(2), "0.33");
  EXPECT_EQ(Rational::Of(-1, 100000)->ToFixed(4), "0.0000");
}

constexpr const char* kBegin = "<!-- metrics: generated from MetricTable() by tests/core/metric_table_test.cc -->\n";
constexpr const char* kEnd = "<!-- end of metrics -->\n";

// PPSIM_UPDATE_DOCS=1 rewrites the list in place instead of failing.
TEST(MetricTableDoc, ClaimsPageListsEveryMetric) {
  const std::string path = std::string(PPSIM_SOURCE_DIR) + "/docs/claims.md";
  std::ifstream in(path, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string doc = buf.str();
  const size_t begin = doc.find(kBegin), end = doc.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << path << " lacks the markers";
  ASSERT_NE(end, std::string::npos);
  const size_t from = begin + std::string(kBegin).size();
  if (std::getenv("PPSIM_UPDATE_DOCS") != nullptr) {
    doc.replace(from, end - from, MetricTableMarkdown());
    std::ofstream(path, std::ios::binary) << doc;
    return;
  }
  EXPECT_EQ(doc.substr(from, end - from), MetricTableMarkdown()) << "rerun with PPSIM_UPDATE_DOCS=1 to regenerate";
}

}  // namespace
}  // namespace ppsim

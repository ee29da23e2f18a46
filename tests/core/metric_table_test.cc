// One metric table (metric_table.h): claims read it, docs/claims.md lists it,
// and every text output prints a value the one way.
#include "ppsim/metric_table.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "generated_doc.h"
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
  EXPECT_EQ(value("peak_sets", 0), std::to_string(m.activations.peak_per_device[0]));
  EXPECT_EQ(FindMetric("size"), nullptr);
}

TEST(MetricTable, OneWayToPrintARational) {
  EXPECT_EQ(Rational(18).ToText(), "18");
  EXPECT_EQ(Rational::Of(2, 3)->ToText(), "2/3 (0.6667)");
  EXPECT_EQ(Rational::Of(-1, 8)->ToText(), "-1/8 (-0.1250)");
  EXPECT_EQ(Rational::Of(1, 3)->ToFixed(2), "0.33");
  EXPECT_EQ(Rational::Of(-1, 100000)->ToFixed(4), "0.0000");
}

std::string ReadDoc(const std::string& name) {
  std::ifstream in(std::string(PPSIM_SOURCE_DIR) + "/docs/" + name, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

// The text between `begin` and `end` in docs/<name> is `generated`.
void ExpectGenerated(const std::string& name, const std::string& begin, const std::string& end,
                     const std::string& generated) {
  testing::ExpectGeneratedSection(std::string(PPSIM_SOURCE_DIR) + "/docs/" + name, begin, end, generated);
}

TEST(MetricTableDoc, ClaimsPageListsEveryMetric) {
  ExpectGenerated("claims.md", "<!-- metrics: generated from MetricTable() by tests/core/metric_table_test.cc -->\n",
                  "<!-- end of metrics -->\n", MetricTableMarkdown());
}

TEST(MetricTableDoc, FormatsPageListsEveryJsonKey) {
  ExpectGenerated("formats.md",
                  "<!-- json metrics: generated from MetricTable() by tests/core/metric_table_test.cc -->\n",
                  "<!-- end of json metrics -->\n", MetricJsonMarkdown());
  EXPECT_NE(MetricJsonMarkdown().find("| `peak_activations_per_device` | `peak_sets`, each device's | a list of integers |"),
            std::string::npos);
}

// docs/semantics.md's "What is measured" explains every JSON key in a row.
TEST(MetricTableDoc, SemanticsPageExplainsEveryJsonKey) {
  const std::string doc = ReadDoc("semantics.md");
  for (const MetricInfo& m : MetricTable()) {
    for (const char* key : {m.json_key, m.json_per_device_key}) {
      if (key == nullptr) continue;
      EXPECT_NE(doc.find("| `" + std::string(key) + "` |"), std::string::npos) << key;
    }
  }
}

}  // namespace
}  // namespace ppsim

// `ppsim list` and `list --keys`: every schedule and every problem key, as
// text and as JSON, in the registry's and the key table's order.
#include "ppsim/jobs/registry_listing.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ppsim/generators.h"
#include "ppsim/problem_keys.h"

namespace ppsim {
namespace {

TEST(RegistryListing, JsonListsEverySchedule) {
  const nlohmann::json j = nlohmann::json::parse(jobs::ScheduleListJson());
  ASSERT_EQ(j["schedules"].size(), Generators().size());
  EXPECT_EQ(j["schedules"][0]["name"], "gpipe");
  EXPECT_EQ(j["schedules"][0]["chunks"], 1);
  EXPECT_EQ(j["schedules"][0]["preconditions"], "one chunk per device");
  const nlohmann::json& zbv = j["schedules"][8];
  EXPECT_EQ(zbv["name"], "zbv");
  EXPECT_EQ(zbv["placement"], "v-shape");
  EXPECT_EQ(zbv["chunks"], 2);
  EXPECT_EQ(zbv["split_backward"], true);
}

TEST(RegistryListing, TextGivesEachScheduleItsPlacementAndPreconditions) {
  const std::string text = jobs::ScheduleListText();
  EXPECT_EQ(text.rfind("gpipe ", 0), 0u);
  EXPECT_NE(text.find("placement loop, v=1\n               requires: one chunk per device\n"), std::string::npos);
  EXPECT_NE(text.find("placement v-shape, v=2, backward split into B and W\n"), std::string::npos);
  EXPECT_NE(text.find("placement loop, any v\n"), std::string::npos);
}

TEST(RegistryListing, KeysJsonFollowsTheKeyTable) {
  const nlohmann::json j = nlohmann::json::parse(jobs::KeyTableJson());
  ASSERT_EQ(j["keys"].size(), KeyTable().size());
  EXPECT_EQ(j["keys"][0]["key"], KeyTable()[0].name);
  EXPECT_EQ(j["keys"][0]["doc"], KeyTable()[0].doc);
}

}  // namespace
}  // namespace ppsim

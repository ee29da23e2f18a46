// SceneSource: a scene parsed once and reloaded under more --set values is
// the scene LoadSceneText gives for the same values, or the same error.
#include <gtest/gtest.h>

#include "ppsim/scene/scene.h"

namespace ppsim {
namespace {

std::string Vec(const std::vector<Tick>& v) {
  std::string s;
  for (Tick t : v) s += std::to_string(t) + ",";
  return s;
}

std::string Describe(const Problem& p) {
  return "P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" + std::to_string(p.v) +
         " comm=" + std::to_string(p.comm) + " hold=" + std::to_string(static_cast<int>(p.hold)) + " F=" + Vec(p.costs.f) +
         " B=" + Vec(p.costs.b) + " W=" + Vec(p.costs.w);
}

// What a --set can change, and what claims and templates read.
std::string Describe(const scene::Scene& s) {
  std::string d = s.title + "|" + s.subtitle + "|" + Describe(s.problem) + "|";
  for (const auto& [k, v] : s.params) d += k + "=" + v.ToString() + " ";
  for (const scene::SceneRun& r : s.runs) d += "|" + r.name + ":" + r.schedule + ":" + r.caption + ":" + Describe(r.problem);
  for (const scene::SceneClaim& c : s.claims) d += "|" + c.check + "@" + std::to_string(c.pos.line);
  return d;
}

constexpr char kText[] = R"(title = "P = {P}"
P = 4
M = 8
alpha = 2
costs = { F = 1, B = 2 }
[[run]]
name = "A"
schedule = "gpipe"
[[run]]
name = "B"
schedule = "1f1b"
M = 4
costs = { F = 3 }
caption = "{M} of B"
[[claim]]
check = "makespan(A) >= alpha * F"
)";

TEST(SceneSource, ReloadEqualsAFullLoadWithTheSameValuesOrItsError) {
  const std::vector<std::string> fixed = {"comm=1"};
  Result<scene::SceneSource> source = scene::SceneSource::Load(kText, "s.toml", fixed);
  ASSERT_TRUE(source.ok()) << source.error().Text();
  EXPECT_EQ(Describe(source->scene()), Describe(*scene::LoadSceneText(kText, "s.toml", fixed)));
  const std::vector<std::vector<std::string>> points = {
      {"P=2"}, {"M=3", "P=8"}, {"alpha=5"}, {"P=0"}, {"M=2"}, {"X=1"}, {"comm=3"}, {"costs.B=4"},
      {"costs.B=0"}, {"hold=resident"}, {"title=7"}, {"P=3"},
      {"costs.F=1:2:1:2"},  // F becomes per-stage: the claim's F is no longer a name
      {"P=2", "costs.F=1:2"},  // the same at P = 2
      {"P=007"}, {"alpha=1.5"}, {"P=5"}};
  scene::Scene out = source->scene();
  for (const auto& more : points) {
    std::vector<std::string> all = fixed;
    all.insert(all.end(), more.begin(), more.end());
    const Result<scene::Scene> full = scene::LoadSceneText(kText, "s.toml", all);
    const Error e = source->Reload(more, &out);
    const std::string at = more.back();
    if (full.ok()) {
      EXPECT_EQ(e.code, ErrorCode::kOk) << at << ": " << e.Text();
      EXPECT_EQ(Describe(out), Describe(*full)) << at;
    } else {
      EXPECT_EQ(e.code, full.error().code) << at;
      EXPECT_EQ(e.Text(), full.error().Text()) << at;
    }
  }
}

TEST(SceneSource, ASyntaxErrorIsLoadSceneTextsError) {
  const Result<scene::SceneSource> s = scene::SceneSource::Load("P = = 4\n", "bad.toml");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().Text(), scene::LoadSceneText("P = = 4\n", "bad.toml").error().Text());
  EXPECT_EQ(s.error().code, ErrorCode::kParse);
}

}  // namespace
}  // namespace ppsim

// Scene files: loading, errors with file:line:col, --set, templates, sweeps.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/scene.h"
#include "ppsim/scene/sweep.h"

namespace ppsim {
namespace {

const std::string kExample = std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml";

const char* kScene = R"toml(title = "GPipe vs 1F1B"
P = 4
M = 6
alpha = 0.1
[[run]]
name = "GPipe"
schedule = "gpipe"
[[run]]
name = "1F1B"
schedule = "1f1b"
M = 8
[[claim]]
check = "peak(GPipe) > peak(1F1B)"
)toml";

// The error of loading `text` (which must fail).
Error LoadError(const std::string& text, const std::vector<std::string>& overrides = {}) {
  Result<scene::Scene> s = scene::LoadSceneText(text, "s.toml", overrides);
  EXPECT_FALSE(s.ok()) << text;
  return s.ok() ? Error::Ok() : s.error();
}

TEST(Scene, LoadsTheExample) {
  Result<scene::Scene> s = scene::LoadScene(kExample);
  ASSERT_TRUE(s.ok()) << s.error().Text();
  EXPECT_EQ(s->title, "GPipe vs 1F1B");
  ASSERT_EQ(s->runs.size(), 2u);
  EXPECT_EQ(s->runs[0].name, "GPipe");
  EXPECT_EQ(s->runs[1].schedule, "1f1b");
  EXPECT_EQ(s->runs[1].problem.P, 4);
  ASSERT_EQ(s->claims.size(), 3u);
  EXPECT_EQ(s->claims[2].check, "peak(GPipe) > peak(1F1B)");
  EXPECT_EQ(s->claims[2].pos.line, 28);
  EXPECT_EQ(s->claims[2].pos.column, 10);  // check = "|peak...
  ASSERT_EQ(s->closing.size(), 2u);

  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*s);
  ASSERT_TRUE(runs.ok()) << runs.error().Text();
  Result<std::vector<ClaimResult>> claims = scene::CheckSceneClaims(*s, *runs);
  ASSERT_TRUE(claims.ok());
  EXPECT_TRUE(AllHold(*claims));
  EXPECT_EQ(*FillTemplate(s->closing[0], *runs, s->params),
            "same finish: 18 cycles · same bubble: 24 idle stage-slots");
  EXPECT_EQ(*FillTemplate(s->closing[1], *runs, s->params), "activations held at the peak: GPipe 23 · 1F1B 9");
  EXPECT_EQ(*FillTemplate(s->subtitle, *runs, s->params), "4 stages · 6 microbatches · one cell = one cycle");
}

TEST(Scene, RunsOverrideAndParametersAreExact) {
  Result<scene::Scene> s = scene::LoadSceneText(kScene, "s.toml");
  ASSERT_TRUE(s.ok()) << s.error().Text();
  EXPECT_EQ(s->runs[0].problem.M, 6);
  EXPECT_EQ(s->runs[1].problem.M, 8);
  EXPECT_EQ(s->params.at("alpha"), *Rational::Of(1, 10));
  EXPECT_EQ(s->params.at("P"), Rational(4));
  EXPECT_EQ(s->params.at("comm"), Rational(0));
}

TEST(Scene, SetOverridesTopLevelValuesButNotARunsOwn) {
  Result<scene::Scene> s = scene::LoadSceneText(kScene, "s.toml", {"P=8", "M=16", "comm=2", "costs.B=2", "alpha=0.25", "title=Hi"});
  ASSERT_TRUE(s.ok()) << s.error().Text();
  EXPECT_EQ(s->runs[0].problem.P, 8);
  EXPECT_EQ(s->runs[0].problem.M, 16);
  EXPECT_EQ(s->runs[1].problem.M, 8);  // the run's own M wins
  EXPECT_EQ(s->runs[0].problem.comm, 2);
  EXPECT_EQ(s->runs[0].problem.costs.b, std::vector<Tick>{2});
  EXPECT_EQ(s->params.at("alpha"), *Rational::Of(1, 4));
  EXPECT_EQ(s->params.at("M"), Rational(16));
  EXPECT_EQ(s->title, "Hi");
  Result<scene::Scene> c = scene::LoadSceneText(kScene, "s.toml", {"costs={F=3,B=[1,2,3,4]}"});
  ASSERT_TRUE(c.ok()) << c.error().Text();
  EXPECT_EQ(c->problem.costs.f, std::vector<Tick>{3});
  EXPECT_EQ(c->problem.costs.b, (std::vector<Tick>{1, 2, 3, 4}));
}

TEST(Scene, BadSetIsAUsageErrorNamingTheKeys) {
  Error e = LoadError(kScene, {"m=16"});
  EXPECT_EQ(e.code, ErrorCode::kUsage);
  EXPECT_NE(e.Text().find("set m=16"), std::string::npos) << e.Text();
  EXPECT_NE(e.Text().find("alpha"), std::string::npos) << e.Text();
  EXPECT_EQ(LoadError(kScene, {"P"}).code, ErrorCode::kUsage);
  e = LoadError(kScene, {"P=0"});
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_EQ(e.Text(), "set P=0: P must be ≥ 1, got 0");  // the CLI says "--set P=0"
  EXPECT_EQ(e.via, "set");
}

TEST(Scene, ErrorsNameFileLineAndColumn) {
  struct Case {
    std::string text;
    ErrorCode code;
    std::string starts;
  };
  const std::string run = "[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n";
  const Case cases[] = {
      {"P = 4\nM = [6\n", ErrorCode::kParse, "s.toml:2:"},                                  // TOML syntax
      {"P = 0\n" + run, ErrorCode::kInvalidValue, "s.toml:1:5: P must be ≥ 1"},
      {"P = \"four\"\n" + run, ErrorCode::kInvalidValue, "s.toml:1:5: P: 'four' is not a whole number"},
      {"hold = \"stash\"\n" + run, ErrorCode::kInvalidValue, "s.toml:1:8: hold: 'stash' is not one of held, resident"},
      {"costs = { F = 0 }\n" + run, ErrorCode::kInvalidValue, "s.toml:1:15: costs.F must be ≥ 1, got 0"},
      {"B = 2\n" + run, ErrorCode::kInvalidValue, "s.toml:1:5: B is a cost"},
      {"colour = \"red\"\n" + run, ErrorCode::kUnknownName, "s.toml:1:10: unknown key 'colour'"},
      {run + "speed = 2\n", ErrorCode::kUnknownName, "s.toml:4:1: unknown key 'speed' in [[run]]"},
      {run + "[[run]]\nname = \"A\"\nschedule = \"1f1b\"\n", ErrorCode::kInvalidValue, "s.toml:5:8: two runs named"},
      {"[[run]]\nname = \"A\"\nschedule = \"gpipz\"\n", ErrorCode::kUnknownName, "s.toml:3:12: unknown schedule 'gpipz'"},
      {"[[run]]\nschedule = \"gpipe\"\n", ErrorCode::kInvalidValue, "s.toml:1:1: [[run]] needs a name"},
      {"P = 4\n", ErrorCode::kInvalidValue, "s.toml: the scene has no [[run]]"},
      {run + "[[claim]]\ncheck = \"makespan(A) = 1\"\n", ErrorCode::kParse,
       "s.toml:5:22: claim: '=' is not a comparison"},
      {run + "[[claim]]\ncheck = \"makespan(B) > 1\"\n", ErrorCode::kUnknownName, "s.toml:5:19: claim: no run named 'B'"},
      {run + "[[claim]]\n  check  =  \"Q > 1\"\n", ErrorCode::kUnknownName, "s.toml:5:14: claim: unknown parameter 'Q'"},
      {run + "[[claim]]\nwhat = \"x\"\n", ErrorCode::kUnknownName, "s.toml:5:1: unknown key 'what' in [[claim]]"},
      {run + "[closing]\nlines = [\"x {makespan(A}\"]\n", ErrorCode::kParse, "s.toml:5:24: in '{makespan(A}'"},
      {run + "[closing]\nlines = [\"x {idle(B)}\"]\n", ErrorCode::kUnknownName, "s.toml:5:19: in '{idle(B)}'"},
      {"title = \"{P} / {N}\"\n" + run, ErrorCode::kUnknownName, "s.toml:1:17: in '{N}'"},
  };
  for (const Case& c : cases) {
    Error e = LoadError(c.text);
    EXPECT_EQ(e.code, c.code) << c.text << "\n" << e.Text();
    EXPECT_EQ(e.Text().rfind(c.starts, 0), 0u) << "got: " << e.Text() << "\nwant prefix: " << c.starts;
  }
}

TEST(Scene, UnreadableFileIsAnIoError) {
  Result<scene::Scene> s = scene::LoadScene("/nonexistent/scene.toml");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kIo);
}

TEST(Scene, ARunThatCannotBeSimulatedNamesItsLine) {
  Result<scene::Scene> s = scene::LoadSceneText("P = 2\nM = 6\n[[run]]\nname = \"I\"\nschedule = \"interleaved\"\nchunks = 2\nM = 5\n",
                                  "s.toml");
  ASSERT_TRUE(s.ok()) << s.error().Text();
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*s);
  ASSERT_FALSE(runs.ok());
  EXPECT_EQ(runs.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(runs.error().Text().rfind("s.toml:3: run I: ", 0), 0u) << runs.error().Text();
}

TEST(Sweep, FindsWhereOneFOneBStopsHoldingLess) {
  Result<std::string> text = io::ReadFile(kExample);
  ASSERT_TRUE(text.ok());
  std::vector<scene::SweepAxis> axes{*scene::ParseSweepAxis("P=1..8"), *scene::ParseSweepAxis("M=1..16")};
  Result<scene::SweepResult> r = scene::Sweep(*text, kExample, {}, axes, 2);
  ASSERT_TRUE(r.ok()) << r.error().Text();
  EXPECT_EQ(r->tried, 128);
  EXPECT_EQ(r->skipped, 0);
  // With one microbatch both schedules are the same order: equal peaks.
  ASSERT_EQ(r->counterexamples.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    const scene::Counterexample& c = r->counterexamples[i];
    EXPECT_EQ(c.claim.check, "peak(GPipe) > peak(1F1B)");
    EXPECT_EQ(c.params[0], (std::pair<std::string, std::int64_t>{"P", static_cast<std::int64_t>(i + 1)}));
    EXPECT_EQ(c.params[1], (std::pair<std::string, std::int64_t>{"M", 1}));
  }
  // The same answer on one thread.
  Result<scene::SweepResult> one = scene::Sweep(*text, kExample, {}, axes, 1);
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->counterexamples.size(), r->counterexamples.size());
  for (size_t i = 0; i < one->counterexamples.size(); ++i)
    EXPECT_EQ(one->counterexamples[i].params, r->counterexamples[i].params);
}

TEST(Sweep, SmallestFirstAndSkipsWhatCannotRun) {
  Result<std::string> text = io::ReadFile(kExample);
  ASSERT_TRUE(text.ok());
  Result<scene::SweepResult> r =
      scene::Sweep(*text, kExample, {}, {*scene::ParseSweepAxis("comm=2,0,1"), *scene::ParseSweepAxis("M=4..5")}, 2);
  ASSERT_TRUE(r.ok()) << r.error().Text();
  EXPECT_EQ(r->tried, 6);
  // comm > 0 breaks "same finish" and "same bubble"; comm=1 M=4 is the smallest point.
  ASSERT_FALSE(r->counterexamples.empty());
  EXPECT_EQ(r->counterexamples[0].params[0].second, 1);
  EXPECT_EQ(r->counterexamples[0].params[1].second, 4);
  for (size_t i = 1; i < r->counterexamples.size(); ++i) {
    const auto& a = r->counterexamples[i - 1].params;
    const auto& b = r->counterexamples[i].params;
    EXPECT_LE(a[0].second + a[1].second, b[0].second + b[1].second);
  }
}

TEST(Sweep, BadAxesAreUsageErrors) {
  EXPECT_EQ(scene::ParseSweepAxis("P").error().code, ErrorCode::kUsage);
  EXPECT_EQ(scene::ParseSweepAxis("P=5..1").error().code, ErrorCode::kUsage);
  EXPECT_EQ(scene::ParseSweepAxis("P=1..x").error().code, ErrorCode::kUsage);
  EXPECT_EQ(scene::ParseSweepAxis("P=1,,2").error().code, ErrorCode::kUsage);
  EXPECT_EQ(scene::ParseSweepAxis("P=1,2,4")->values, (std::vector<std::int64_t>{1, 2, 4}));
  Result<std::string> text = io::ReadFile(kExample);
  Result<scene::SweepResult> r = scene::Sweep(*text, kExample, {}, {*scene::ParseSweepAxis("Q=1..3")}, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kUsage);
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// [render] is typed and checked when the scene loads, with file:line:col,
// in the scene's own words (never a flag's).
TEST(SceneRender, SizeFpsAndDisplayWidthAreRead) {
  const std::string run = "[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n";
  Result<scene::Scene> s =
      scene::LoadSceneText(run + "[render]\nsize = \"1280x720\"\nfps = 24\ndisplay_width = 760\n", "s.toml");
  ASSERT_TRUE(s.ok()) << s.error().Text();
  EXPECT_EQ(s->render.width, 1280);
  EXPECT_EQ(s->render.height, 720);
  EXPECT_EQ(s->render.fps, 24);
  EXPECT_EQ(s->render.display_width, 760);
  Result<scene::Scene> device = scene::LoadSceneText(run + "[render]\ngauge = \"device\"\n", "s.toml");
  ASSERT_TRUE(device.ok()) << device.error().Text();
  EXPECT_EQ(device->render.gauge, render::GaugeMode::kDevice);
  Result<scene::Scene> none = scene::LoadSceneText(run, "s.toml");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->render.width.has_value());
  EXPECT_FALSE(none->render.fps.has_value());
  EXPECT_FALSE(none->render.gauge.has_value());
}

TEST(SceneRender, BadValuesAndUnknownKeysNameThePosition) {
  const std::string run = "[[run]]\nname = \"A\"\nschedule = \"gpipe\"\n[render]\n";
  struct Case {
    std::string line;
    ErrorCode code;
    std::string message;
  };
  const Case cases[] = {
      {"fps = 1000", ErrorCode::kInvalidValue, "s.toml:5:7: render.fps 1000 is outside 1..240"},
      {"fps = 0", ErrorCode::kInvalidValue, "s.toml:5:7: render.fps 0 is outside 1..240"},
      {"fps = \"abc\"", ErrorCode::kInvalidValue, "s.toml:5:7: render.fps must be a whole number"},
      {"size = \"1280x\"", ErrorCode::kInvalidValue, "s.toml:5:8: render.size \"1280x\" must be WIDTHxHEIGHT"},
      {"size = \"12x720\"", ErrorCode::kInvalidValue, "s.toml:5:8: render.size \"12x720\" must be"},
      {"size = 1280", ErrorCode::kInvalidValue, "s.toml:5:8: render.size must be a string"},
      {"gauge = \"stage\"", ErrorCode::kInvalidValue,
       "s.toml:5:9: render.gauge \"stage\" is not one of fullest, cluster, device"},
      {"gauge = 1", ErrorCode::kInvalidValue, "s.toml:5:9: render.gauge must be a string"},
      {"colour = \"red\"", ErrorCode::kUnknownName, "s.toml:5:1: unknown key 'colour' in [render] (known: size, fps"},
  };
  for (const Case& c : cases) {
    const Error e = LoadError(run + c.line + "\n");
    EXPECT_EQ(e.code, c.code) << c.line << ": " << e.Text();
    EXPECT_EQ(e.Text().rfind(c.message, 0), 0u) << c.line << ": " << e.Text();
    EXPECT_EQ(e.Text().find("--"), std::string::npos) << e.Text();  // no flag the user never typed
  }
}

}  // namespace
}  // namespace ppsim

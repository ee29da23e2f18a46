// The CLI contract of docs/formats.md, end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_tool.h"
#include "ppsim/error.h"
#include "ppsim/memory.h"
#include "ppsim/metric_table.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

using testing::RunPpsim;

nlohmann::json SimulateJson(const std::string& args) {
  auto run = RunPpsim("simulate " + args + " --json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

TEST(SimulateCli, CanonicalExampleJson) {
  const nlohmann::json one = SimulateJson("--schedule 1f1b -P 4 -M 6");
  EXPECT_EQ(one["makespan"], 18);
  EXPECT_EQ(one["idle"], 24);
  EXPECT_EQ(one["peak_activations"], 9);
  const nlohmann::json g = SimulateJson("--schedule gpipe -P 4 -M 6");
  EXPECT_EQ(g["makespan"], 18);
  EXPECT_EQ(g["idle"], 24);
  EXPECT_EQ(g["peak_activations"], 23);
  for (const char* field : {"schedule", "P", "M", "v", "costs", "comm", "makespan", "busy", "idle", "bubble_ratio",
                            "bubble_fraction", "peak_activations", "peak_activations_per_device", "ops"})
    EXPECT_TRUE(g.contains(field)) << field;
  ASSERT_EQ(g["ops"].size(), 48u);
  const nlohmann::json& op = g["ops"][0];
  EXPECT_EQ(op, (nlohmann::json{{"device", 0}, {"stage", 0}, {"kind", "F"}, {"microbatch", 0}, {"start", 0}, {"end", 1}}));
}

TEST(SimulateCli, JsonIsOneObjectAndRerunsAreByteIdentical) {
  auto a = RunPpsim("simulate --schedule interleaved --chunks 2 -P 4 -M 8 --comm 1 --json");
  auto b = RunPpsim("simulate --schedule interleaved --chunks 2 -P 4 -M 8 --comm 1 --json");
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(std::count(a.out.begin(), a.out.end(), '\n'), 1);
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> Lines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  }
  return out;
}

std::vector<std::int64_t> Numbers(const std::string& text) {
  std::vector<std::int64_t> out;
  std::istringstream in(text);
  for (std::int64_t v; in >> v;) out.push_back(v);
  return out;
}

// The terminal chart is the layout's: each op's label at its start tick (a
// tick is three columns after the 6-column label column), one dot per idle
// device-cycle, and the activations held in every cycle, as Measure counts them.
TEST(SimulateCli, TextChartShowsEveryOpIdleCycleAndHeldCount) {
  auto run = RunPpsim("simulate --schedule 1f1b -P 4 -M 6 --format text");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  Problem p;
  p.P = 4;
  p.M = 6;
  const Timeline t = *Simulate("1f1b", p);
  const Metrics m = Measure(t);
  std::vector<std::string> rows;
  for (int d = 0; d < 4; ++d) {
    const std::vector<std::string> row = Lines(run.out, "d" + std::to_string(d) + " ");
    ASSERT_EQ(row.size(), 1u) << run.out;
    rows.push_back(row[0]);
  }
  EXPECT_EQ(rows[3].substr(0, 6 + 3 * 6), "d3    .  .  .  F0 B0 F1 ");  // device 3: F0 at tick 3, then B0
  for (const PlacedOp& op : t.Ops()) {
    const std::string label = std::string(1, KindChar(op.kind)) + std::to_string(op.microbatch);
    EXPECT_EQ(rows[op.device].substr(6 + 3 * op.start, 2), label) << rows[op.device];
  }
  std::int64_t dots = 0;
  for (const std::string& row : rows) {
    dots += std::count(row.begin(), row.end(), '.');
    EXPECT_NE(row.find(" idle 6"), std::string::npos) << row;  // each device: 18 - 12 busy cycles
  }
  EXPECT_EQ(dots, m.idle);
  const std::vector<std::string> held = Lines(run.out, "held ");
  ASSERT_EQ(held.size(), 1u) << run.out;
  const std::vector<std::int64_t> values = Numbers(held[0].substr(5));
  ASSERT_EQ(values.size(), static_cast<size_t>(m.makespan)) << held[0];
  // The default gauge: what the fullest device holds in each cycle, counted
  // the allocator's way (from the start of F to the end of its B): 1F1B's
  // first device reaches P = 4 and stays there through the steady state.
  const StepSeries fullest = FullestDevice(MeasureActivations(t, HoldMode::kResident).per_device);
  for (Tick x = 0; x < m.makespan; ++x) EXPECT_EQ(values[x], fullest.At(x)) << "tick " << x;
  EXPECT_EQ(held[0], "held  1  2  3  4  4  4  4  4  4  4  4  4  3  3  2  2  1  1");
}

// Narrower than a label a tick: one letter a cycle, and the held counts
// listed under the chart, ten to a group, each line headed by its first cycle.
TEST(SimulateCli, NarrowTextChartStillListsEveryHeldCount) {
  auto run = RunPpsim("simulate --schedule gpipe -P 4 -M 6 --format text --width 40");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Lines(run.out, "d0 ").at(0), "d0    FFFFFF......BBBBBB idle 6");
  const std::vector<std::string> held = Lines(run.out, "held ");
  ASSERT_EQ(held.size(), 3u) << run.out;  // the bars, then cycles 0-9 and 10-17
  EXPECT_EQ(held[1], "held  0: 1 2 3 4 5 6 6 6 6 6");  // GPipe's fullest device: all M = 6
  EXPECT_EQ(held[2], "held 10: 6 6 6 5 4 3 2 1");
  auto bad = RunPpsim("simulate --schedule gpipe -P 4 -M 6 --format text --width 0");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--width"), std::string::npos) << bad.err;
}

TEST(SimulateCli, ValidateAcceptsWhatSimulatePrints) {
  const std::string path = "/tmp/ppsim_cli_validate_" + std::to_string(::getpid()) + ".json";
  auto sim = RunPpsim("simulate --schedule 1f1b -P 4 -M 6 --comm 2 --json -o " + path);
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  auto ok = RunPpsim("validate " + path);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "ok: 48 ops, legal and tight, makespan 42\n");
  // Validated against a different latency, the same timeline is not tight.
  auto loose = RunPpsim("validate " + path + " --comm 0");
  EXPECT_EQ(loose.exit_code, ExitCode(ErrorCode::kInvalidTimeline));
  EXPECT_NE(loose.err.find("not-tight: F0@s1 starts at 3 but could start at 1 (F0@s0 ends at 1)"), std::string::npos)
      << loose.err;
  std::remove(path.c_str());
}

TEST(SimulateCli, ValidateRejectsTheCascade) {
  // Every stage starts F0 at tick 0: what a start-is-finish simulator produces.
  const std::string path = "/tmp/ppsim_cli_cascade_" + std::to_string(::getpid()) + ".json";
  nlohmann::json ops = nlohmann::json::array();
  for (int s = 0; s < 4; ++s) {
    ops.push_back({{"device", s}, {"stage", s}, {"kind", "F"}, {"microbatch", 0}, {"start", 0}, {"end", 1}});
    ops.push_back({{"device", s}, {"stage", s}, {"kind", "B"}, {"microbatch", 0}, {"start", 1 + (3 - s)}, {"end", 2 + (3 - s)}});
  }
  std::ofstream(path) << ops.dump();
  auto run = RunPpsim("validate " + path);
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kInvalidTimeline));
  EXPECT_NE(run.err.find("F0@s1 starts at 0 but F0@s0 ends at 1"), std::string::npos) << run.err;
  std::remove(path.c_str());
}

struct BadInput {
  const char* args;
  ErrorCode code;
  const char* message;
};

// Failure messages and test names show the command, not the struct's bytes.
void PrintTo(const BadInput& c, std::ostream* os) { *os << "ppsim " << c.args; }

// "simulate -P 0" -> "simulate_P_0": letters and digits, runs of others as one '_'.
std::string TestName(const std::string& args) {
  std::string name;
  for (char ch : args) {
    if (std::isalnum(static_cast<unsigned char>(ch))) name += ch;
    else if (!name.empty() && name.back() != '_') name += '_';
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name;
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, OneLineNamingTheFieldAndADistinctExitCode) {
  const BadInput& c = GetParam();
  auto run = RunPpsim(c.args);
  EXPECT_EQ(run.exit_code, ExitCode(c.code)) << run.err;
  EXPECT_EQ(run.err, std::string("ppsim: ") + c.message + "\n");
  EXPECT_EQ(run.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Catalogue, BadInputTest,
    ::testing::Values(
        BadInput{"simulate -P 0", ErrorCode::kInvalidValue, "-P must be ≥ 1, got 0"},
        BadInput{"simulate -M -3", ErrorCode::kInvalidValue, "-M must be ≥ 1, got -3"},
        BadInput{"simulate -M six", ErrorCode::kInvalidValue, "-M: 'six' is not a whole number"},
        BadInput{"simulate -P 99999999999999999999", ErrorCode::kTooLarge, "-P: 99999999999999999999 exceeds the limit 4096"},
        BadInput{"simulate -P 4096 -M 1048576", ErrorCode::kTooLarge,
                 "P·v·M = 4294967296 stage-microbatches exceeds the limit 66666666 (refused before allocating)"},
        BadInput{"simulate --chunks 0 -s interleaved", ErrorCode::kInvalidValue, "--chunks must be ≥ 1, got 0"},
        BadInput{"simulate --cost F=0", ErrorCode::kInvalidValue, "--cost: 'F=0': costs.F must be ≥ 1, got 0"},
        BadInput{"simulate --cost B=1.5", ErrorCode::kInvalidValue, "--cost: 'B=1.5': costs.B: '1.5' is not a whole number or a list of them"},
        BadInput{"simulate --comm -1", ErrorCode::kInvalidValue, "--comm must be ≥ 0, got -1"},
        BadInput{"simulate --hold sometimes", ErrorCode::kInvalidValue, "--hold: 'sometimes' is not one of held, resident"},
        BadInput{"simulate -s interleaved --chunks 2 -P 4 -M 9", ErrorCode::kPrecondition,
                 "interleaved needs M divisible by its number of rounds max(1, M/P) = 2; got M = 9, P = 4 (use M a "
                 "multiple of P, e.g. 8)"},
        BadInput{"simulate -o /nonexistent-dir/x.json --json", ErrorCode::kIo,
                 "cannot write /nonexistent-dir/x.json: no directory /nonexistent-dir"},
        BadInput{"validate /nonexistent.json", ErrorCode::kIo, "cannot read /nonexistent.json: No such file or directory"}),
    [](const ::testing::TestParamInfo<BadInput>& p) { return TestName(p.param.args); });

TEST(SimulateCli, UnknownScheduleListsTheKnownOnes) {
  auto run = RunPpsim("simulate --schedule zero-bubble-please");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kUnknownName));
  EXPECT_NE(run.err.find("ppsim: unknown schedule 'zero-bubble-please'; known: gpipe, 1f1b"), std::string::npos);
}

TEST(SimulateCli, ValidateReportsJsonSyntaxErrorsWithPosition) {
  const std::string path = "/tmp/ppsim_cli_syntax_" + std::to_string(::getpid()) + ".json";
  std::ofstream(path) << "{\n  \"ops\": [\n    {\"device\": 0,,}\n  ]\n}\n";
  auto run = RunPpsim("validate " + path);
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kParse));
  EXPECT_NE(run.err.find(path + ":3:"), std::string::npos) << run.err;
  std::remove(path.c_str());
}

TEST(CompareCli, SaysMakespansAndBubblesAreEqual) {
  auto run = RunPpsim("compare --schedule gpipe,1f1b -P 4 -M 6");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("makespans equal: gpipe=18 1f1b=18"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("bubbles equal: gpipe idle 24 of 72 slots (33%) · 1f1b idle 24 of 72 slots (33%)"),
            std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1 tick = 1 stage cost unit"), std::string::npos) << run.out;
  // The ratio and its closed form printed the one way (Rational::ToText),
  // the cell wrapped at a word to keep two runs side by side in 80 columns.
  EXPECT_NE(run.out.find("bubble_ratio            1/2 (0.5000) (P-1)/M = 1/2   1/2 (0.5000) (P-1)/M = 1/2\n"
                         "                        (0.5000) ✓                   (0.5000) ✓\n"),
            std::string::npos)
      << run.out;
  auto json = RunPpsim("compare --schedule gpipe,1f1b -P 4 -M 6 --json");
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_TRUE(j["makespans_equal"]);
  EXPECT_EQ(j["runs"][1]["peak_activations"], 9);
  // The prediction is a number written as the metric is: a double beside bubble_ratio's.
  EXPECT_EQ(j["runs"][0]["bubble_ratio"], 0.5);
  EXPECT_EQ(j["runs"][0]["predicted"]["bubble_ratio"]["value"], 0.5);
  EXPECT_TRUE(j["runs"][0]["predicted"]["bubble_ratio"]["value"].is_number_float());
}

// compare lists every metric of the table (metric_table.h), in its text and
// its --json: a row per metric, and each metric's JSON key with its value.
TEST(CompareCli, ListsEveryMetricOfTheTable) {
  auto run = RunPpsim("compare -s gpipe,1f1b -P 4 -M 6");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const MetricInfo& m : MetricTable()) {
    if (!MetricApplies(m, Metrics{})) continue;  // comm metrics: only for runs with --comms (CommsCli)
    EXPECT_NE(run.out.find("\n" + std::string(m.name) + " "), std::string::npos) << m.name << "\n" << run.out;
  }
  // A row's cells, "|"-separated: columns are two or more spaces apart.
  auto row = [&](const std::string& label) {
    const size_t at = run.out.find("\n" + label + " ");
    if (at == std::string::npos) return std::string();
    const std::string line = run.out.substr(at + 1, run.out.find('\n', at + 1) - at - 1);
    std::string cells;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line.compare(i, 2, "  ") != 0) {
        cells += line[i];
        continue;
      }
      cells += "|";
      i = line.find_first_not_of(' ', i) - 1;
    }
    return cells;
  };
  EXPECT_EQ(row("bubble_fraction"), "bubble_fraction|1/3 (0.3333)|1/3 (0.3333)");
  EXPECT_EQ(row("bubble_ratio"), "bubble_ratio|1/2 (0.5000) (P-1)/M = 1/2|1/2 (0.5000) (P-1)/M = 1/2");  // wrapped
  EXPECT_EQ(row("peak_sets per device"), "peak_sets per device|6 6 6 5|4 3 2 0");
  auto json = RunPpsim("compare -s gpipe,1f1b -P 4 -M 6 --json");
  const auto runs = nlohmann::json::parse(json.out)["runs"];
  for (const MetricInfo& m : MetricTable()) {
    if (!MetricApplies(m, Metrics{})) continue;  // comm metrics: only for runs with --comms (CommsCli)
    if (m.json_key != nullptr) {
      EXPECT_TRUE(runs[0].contains(m.json_key)) << m.json_key;
    }
  }
  EXPECT_EQ(runs[0]["bubble_rate_span"], 1.0 / 3);  // gpipe: device 0 idles 6 of its span of 18
  EXPECT_EQ(runs[0]["peak_stage_sets"], 23.0);
  EXPECT_EQ(runs[1]["peak_activations_per_device"], nlohmann::json({4, 3, 2, 0}));
}

// One model across runs: interleaved's chunks cost half a stage, the tick
// is half a unit, the work is equal and the bubble halves.
TEST(CompareCli, InterleavedOnTheSameModelDoesEqualWorkWithHalfTheBubble) {
  auto run = RunPpsim("compare -s 1f1b,interleaved --chunks 2 -P 4 -M 8");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("1 tick = 1/2 stage cost unit"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("costs per stage of the model on one device"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("makespans differ: 1f1b=44 interleaved=38"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("busy (work) equal: 1f1b=128 interleaved=128"), std::string::npos) << run.out;
  std::string joined = run.out;  // lines wrapped at 80 columns, continued with two spaces
  for (size_t at; (at = joined.find("\n  ")) != std::string::npos;) joined.replace(at, 3, " ");
  EXPECT_NE(joined.find("bubbles differ: 1f1b idle 48 of 176 slots (27%) · interleaved idle 24 of 152 slots (16%)"),
            std::string::npos) << run.out;
  auto json = RunPpsim("compare -s 1f1b,interleaved --chunks 2 -P 4 -M 8 --json");
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["cost_basis"], "stage");
  EXPECT_EQ(j["ticks_per_unit"], 2);
  EXPECT_EQ(j["runs"][0]["idle"], 48);
  EXPECT_EQ(j["runs"][1]["idle"], 24);
  EXPECT_EQ(j["runs"][1]["peak_activations"], 28);  // chunk sets
  EXPECT_EQ(j["runs"][1]["peak_stage_sets"], 14);   // whole stages
}

// --cost-per chunk keeps the per-op meaning and its old numbers.
TEST(CompareCli, CostPerChunkKeepsCostsAsGiven) {
  auto run = RunPpsim("compare -s 1f1b,interleaved --chunks 2 -P 4 -M 8 --cost-per chunk");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("costs per chunk, as given (--cost-per chunk); 1 tick = 1 chunk cost unit"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("makespans differ: 1f1b=22 interleaved=38"), std::string::npos) << run.out;
  auto sim = RunPpsim("simulate -s interleaved --chunks 2 -P 4 -M 8 --cost F=2,BW=2 --cost-per chunk --json");
  const auto j = nlohmann::json::parse(sim.out);
  EXPECT_EQ(j["cost_basis"], "chunk");
  EXPECT_EQ(j["ticks_per_unit"], 1);
  EXPECT_EQ(j["costs"]["F"], 2);
  auto bad = RunPpsim("compare --cost-per layer");
  EXPECT_EQ(bad.exit_code, ExitCode(ErrorCode::kInvalidValue));
  EXPECT_NE(bad.err.find("--cost-per: 'layer' is not one of stage, chunk"), std::string::npos) << bad.err;
}

// simulate --json carries every metric of the table under its key, a ratio
// as a double: interleaved v = 2 holds 28 chunk sets, 14 stage-sets.
TEST(SimulateCli, JsonCarriesEveryMetricOfTheTable) {
  const nlohmann::json j = SimulateJson("-s interleaved --chunks 2 -P 4 -M 8");
  for (const MetricInfo& m : MetricTable()) {
    if (!MetricApplies(m, Metrics{})) continue;  // comm metrics: only for runs with --comms (CommsCli)
    for (const char* key : {m.json_key, m.json_per_device_key}) {
      if (key == nullptr) continue;
      EXPECT_TRUE(j.contains(key)) << key;
    }
  }
  EXPECT_EQ(j["peak_activations"], 28);
  EXPECT_EQ(j["peak_stage_sets"], 14.0);
  EXPECT_TRUE(j["peak_stage_sets"].is_number_float());
  EXPECT_EQ(j["bubble_ratio"], 0.1875);  // 24 / 128
  EXPECT_EQ(j["max_span_idle"], 6);
}

// simulate's summary says which basis and tick scale its numbers are in.
TEST(SimulateCli, SummarySaysTheCostBasisAndTickScale) {
  auto run = RunPpsim("simulate -s interleaved --chunks 2 -P 4 -M 8");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("costs per stage (a chunk costs 1/2); 1 tick = 1/2 stage cost unit\n"
                         "makespan 38  busy 128  idle 24"),
            std::string::npos)
      << run.out;
}

}  // namespace
}  // namespace ppsim

namespace ppsim {
namespace {

// Not a terminal: compare fits 80 columns, runs side by side as far as they
// fit (cells wrapping at words), the rest below, every figure still there.
TEST(CompareCli, FitsEightyColumnsWhenNotATerminal) {
  for (const char* runs : {"gpipe,1f1b", "1f1b,zb-h1,zbv", "1f1b,zb-h1,zbv,dualpipev -P 8 -M 16"}) {
    auto run = RunPpsim(std::string("compare -s ") + runs);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::istringstream lines(run.out);
    for (std::string line; std::getline(lines, line);) {
      size_t columns = 0;
      for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
      EXPECT_LE(columns, 80u) << runs << ": " << line;
    }
  }
  auto two = RunPpsim("compare -s gpipe,1f1b");
  EXPECT_NE(two.out.find("                        gpipe                        1f1b\n"), std::string::npos) << two.out;
  EXPECT_NE(two.out.find("makespans equal: gpipe=18 1f1b=18\n"), std::string::npos) << two.out;
  auto three = RunPpsim("compare -s 1f1b,zb-h1,zbv -P 4 -M 8");
  EXPECT_NE(three.out.find("\n                        zbv v=2\nmakespan                72\n"), std::string::npos) << three.out;
  EXPECT_NE(three.out.find("bubbles differ: 1f1b idle 96 of 352 slots (27%) · zb-h1 idle 48 of 304 slots\n  (16%)"),
            std::string::npos)
      << three.out;
}

}  // namespace
}  // namespace ppsim

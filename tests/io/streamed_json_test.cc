// `simulate --json` is streamed (JsonOut, no document tree): its bytes equal
// nlohmann's dump() of the same object, for every schedule, with and without
// the critical path and the byte figures. Also the writer's own edge cases:
// strings that are not UTF-8, doubles, buffers that fill mid-value.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io_shared/memory_bytes_json.h"
#include "io_shared/simulation_tree.h"
#include "ppsim/critical_path.h"
#include "ppsim/generators.h"
#include "ppsim/io/chrome_trace.h"
#include "ppsim/io/simulation_json.h"
#include "ppsim/io/timeline_json.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

std::string TreeDump(const Timeline& t, const Metrics& m, bool critical_path) {
  nlohmann::json j = io::SimulationJson(t, m);
  if (critical_path) j["critical_path"] = CriticalPathIndices(t);
  if (t.problem.memory.enabled()) io::AddMemoryBytesJson(t, MeasureMemoryBytes(t), j);
  return j.dump() + "\n";
}

std::string Streamed(const Timeline& t, const Metrics& m, bool critical_path, size_t buffer) {
  std::string s;
  io::JsonOut out(io::AppendTo(s), buffer);
  EXPECT_TRUE(io::WriteSimulationJson(out, t, m, critical_path));
  EXPECT_TRUE(out.Finish());
  return s;
}

TEST(StreamedJson, SameBytesAsTheTreeForEverySchedule) {
  int compared = 0;
  for (const GeneratorInfo& g : Generators())
    for (int variant = 0; variant < 3; ++variant) {
      Problem p;
      p.P = 4;
      p.M = 8;
      p.v = g.name == "combined-1f1b" ? 2 : 1;  // Megatron: chunks ≥ 2 when P > 1
      if (variant >= 1) {
        p.costs.f = {3};
        p.costs.b = {5};
        p.costs.w = {2};
        p.comm = 1;
        p.hold = HoldMode::kResident;
      }
      if (variant == 2) {
        p.memory.activation_bytes = {1000};
        p.memory.param_bytes = {7};
        p.memory.limit = 2500;
      }
      Result<Timeline> t = Simulate(g.name, p);
      ASSERT_TRUE(t.ok()) << g.name << ": " << t.error().message;
      const Metrics m = Measure(*t);
      for (bool cp : {false, true}) {
        EXPECT_EQ(Streamed(*t, m, cp, 4096), TreeDump(*t, m, cp)) << g.name << " variant " << variant;
        ++compared;
      }
    }
  EXPECT_GE(compared, 60);
}

TEST(StreamedJson, StringsAndNumbersAsNlohmannWritesThem) {
  for (const std::string& s : std::vector<std::string>{"plain", "quote\" back\\slash", "tab\tnl\ncr\rbs\bff\f", std::string("nul\0x", 5),
                              "\x01\x1f\x7f", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"}) {
    std::string out;
    io::JsonOut w(io::AppendTo(out));
    w.String(s);
    w.Finish();
    EXPECT_EQ(out, nlohmann::json(s).dump()) << s;
  }
  for (double d : {0.0, 0.5, 1.0, 1.0 / 3, 1e-5, 123456789.125, 2.5e20, -0.25}) {
    std::string out;
    io::JsonOut w(io::AppendTo(out));
    w.Double(d);
    w.Finish();
    EXPECT_EQ(out, nlohmann::json(d).dump()) << d;
  }
}

TEST(StreamedJson, BytesThatAreNotUtf8AreEscapedAsText) {
  std::string out;
  io::JsonOut w(io::AppendTo(out));
  w.String("run\xff.csv");  // a path with an invalid byte
  w.Finish();
  EXPECT_EQ(out, "\"run\\\\xff.csv\"");
  EXPECT_EQ(nlohmann::json::parse(out).get<std::string>(), "run\\xff.csv");
}

TEST(StreamedJson, TraceTimesAreExactWhereTickTimesMicrosecondsOverflowInt64) {
  Problem p;
  p.P = 2;
  p.M = 1;
  p.costs.f = {Tick{1} << 40};
  p.costs.bw = {Tick{1} << 40};
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok());
  io::ChromeTraceOptions o;
  o.tick_us = 1'000'000'000;
  const std::string trace = io::ChromeTraceJson(*t, o);
  // F0@s1 starts at tick 2^40: 2^40 * 10^9 us does not fit in int64.
  EXPECT_NE(trace.find("\"ts\":1099511627776000000000,"), std::string::npos);
  EXPECT_NO_THROW(nlohmann::json::parse(trace));
}

}  // namespace
}  // namespace ppsim

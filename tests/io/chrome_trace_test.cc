// The Chrome trace writer, checked against the Trace Event Format
// specification (JSON Object Format): every event has the fields its phase
// requires, timestamps are numbers in microseconds, pid/tid are integers,
// every flow id has exactly one start and one finish, and flow ends bind to
// a slice on their own process. Plus the facts a user reads off the trace.
#include "ppsim/io/chrome_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "ppsim/comm_run.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/metrics.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

using nlohmann::json;

Timeline Placed(const char* schedule, int P, int M, int v = 1, Tick comm = 0) {
  Problem p;
  p.P = P;
  p.M = M;
  p.v = v;
  p.comm = comm;
  p.costs.bw = {2};
  Result<Timeline> t = Simulate(schedule, p);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return *t;
}

struct Slice {
  double ts, end;
};

// Returns a description of the first violation of the spec, or "".
std::string CheckTraceEventFormat(const json& doc) {
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array())
    return "top level must be an object with a traceEvents array";
  if (doc.contains("displayTimeUnit") && doc["displayTimeUnit"] != "ms" && doc["displayTimeUnit"] != "ns")
    return "displayTimeUnit must be \"ms\" or \"ns\"";
  std::map<std::int64_t, std::vector<Slice>> slices;  // by pid (one tid per process here)
  struct FlowEnd {
    int starts = 0, finishes = 0;
    std::string cat, name;
    double s_ts = 0, f_ts = 0;
    std::int64_t s_pid = 0, f_pid = 0;
  };
  std::map<std::string, FlowEnd> flows;
  for (const json& e : doc["traceEvents"]) {
    const std::string where = e.dump();
    if (!e.is_object()) return "event is not an object: " + where;
    if (!e.contains("ph") || !e["ph"].is_string() || e["ph"].get<std::string>().size() != 1)
      return "ph must be a one-character string: " + where;
    if (!e.contains("name") || !e["name"].is_string()) return "name must be a string: " + where;
    if (!e.contains("pid") || !e["pid"].is_number_integer()) return "pid must be an integer: " + where;
    if (!e.contains("tid") || !e["tid"].is_number_integer()) return "tid must be an integer: " + where;
    const std::string ph = e["ph"];
    if (ph != "M" && (!e.contains("ts") || !e["ts"].is_number() || e["ts"].get<double>() < 0))
      return "ts must be a non-negative number of microseconds: " + where;
    if (e.contains("args") && !e["args"].is_object()) return "args must be an object: " + where;
    if (ph == "X") {
      if (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0)
        return "complete event needs a non-negative dur: " + where;
      slices[e["pid"]].push_back({e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
    } else if (ph == "C") {
      if (!e.contains("args") || e["args"].empty()) return "counter needs args with its series: " + where;
      for (const auto& [k, v] : e["args"].items())
        if (!v.is_number()) return "counter value " + k + " must be a number: " + where;
    } else if (ph == "M") {
      static const std::set<std::string> kNames = {"process_name", "process_labels", "process_sort_index",
                                                   "thread_name", "thread_sort_index"};
      if (!kNames.count(e["name"])) return "unknown metadata event: " + where;
      if (!e.contains("args")) return "metadata needs args: " + where;
      const std::string n = e["name"];
      if ((n == "process_name" || n == "thread_name") && !e["args"]["name"].is_string())
        return "process_name/thread_name need args.name: " + where;
      if (n.find("sort_index") != std::string::npos && !e["args"]["sort_index"].is_number_integer())
        return "sort_index must be an integer: " + where;
    } else if (ph == "s" || ph == "f") {
      if (!e.contains("id")) return "flow event needs an id: " + where;
      if (!e.contains("cat") || !e["cat"].is_string()) return "flow event needs a cat: " + where;
      FlowEnd& f = flows[e["id"].dump()];
      if (ph == "s") {
        ++f.starts;
        f.s_ts = e["ts"];
        f.s_pid = e["pid"];
      } else {
        ++f.finishes;
        f.f_ts = e["ts"];
        f.f_pid = e["pid"];
        if (e.value("bp", "") != "e") return "flow finish should bind to its enclosing slice (bp \"e\"): " + where;
      }
      if (!f.cat.empty() && (f.cat != e["cat"] || f.name != e["name"]))
        return "a flow's start and finish must share cat and name: " + where;
      f.cat = e["cat"];
      f.name = e["name"];
    } else {
      return "phase not written by ppsim: " + where;
    }
  }
  auto inside = [&](std::int64_t pid, double ts) {
    for (const Slice& s : slices[pid])
      if (s.ts < ts && ts < s.end) return true;
    return false;
  };
  for (const auto& [id, f] : flows) {
    if (f.starts != 1 || f.finishes != 1) return "flow id " + id + " is not one start paired with one finish";
    if (f.f_ts < f.s_ts) return "flow id " + id + " finishes before it starts";
    if (!inside(f.s_pid, f.s_ts) || !inside(f.f_pid, f.f_ts))
      return "flow id " + id + " does not sit inside a slice on its process";
  }
  return "";
}

TEST(ChromeTrace, FollowsTheTraceEventFormat) {
  for (auto [name, v, comm] : {std::tuple{"1f1b", 1, 0}, {"gpipe", 1, 1}, {"interleaved", 2, 3}, {"zbv", 2, 1}, {"dualpipe", 2, 0}, {"dualpipev", 2, 1}}) {
    SCOPED_TRACE(name);
    const json doc = json::parse(io::ChromeTraceJson(Placed(name, 4, 8, v, comm)));
    EXPECT_EQ(CheckTraceEventFormat(doc), "");
  }
}

TEST(ChromeTrace, OneSlicePerOpInMicroseconds) {
  const Timeline t = Placed("1f1b", 4, 6);
  io::ChromeTraceOptions o;
  o.tick_us = 250;
  const json doc = json::parse(io::ChromeTraceJson(t, o));
  std::map<std::string, json> by_name;  // "F3@s1" -> its X event
  std::set<int> named_processes;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] == "X") by_name[e["name"]] = e;
    if (e["ph"] == "M" && e["name"] == "process_name") {
      named_processes.insert(e["pid"].get<int>());
      EXPECT_EQ(e["args"]["name"], "device " + std::to_string(e["pid"].get<int>()));
    }
  }
  EXPECT_EQ(named_processes, (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(by_name.size(), static_cast<size_t>(2 * 4 * 6));
  for (const PlacedOp& op : t.Ops()) {
    const json& e = by_name.at(OpName(op.op()));
    EXPECT_EQ(e["pid"], op.device);
    EXPECT_EQ(e["ts"], op.start * 250);
    EXPECT_EQ(e["dur"], (op.end - op.start) * 250);
  }
  // The last op ends at the makespan.
  EXPECT_EQ(by_name.at("B5@s0")["ts"].get<Tick>() + by_name.at("B5@s0")["dur"].get<Tick>(), t.makespan * 250);
}

TEST(ChromeTrace, FlowsAreTheCrossDeviceDependencies) {
  const Timeline t = Placed("interleaved", 4, 8, 2, 1);
  const Metrics m = Measure(t);
  const json doc = json::parse(io::ChromeTraceJson(t));
  int starts = 0;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "s") ++starts;
  EXPECT_EQ(starts, m.transfers);
  EXPECT_GT(starts, 0);
}

TEST(ChromeTrace, CounterPeaksAreTheActivationPeaks) {
  const Timeline t = Placed("gpipe", 4, 6);
  const Metrics m = Measure(t);
  const json doc = json::parse(io::ChromeTraceJson(t));
  std::map<int, std::int64_t> peak;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "C" && e["name"] == "activations")
      peak[e["pid"]] = std::max(peak[e["pid"]], e["args"]["held"].get<std::int64_t>());
  for (int d = 0; d < 4; ++d) EXPECT_EQ(peak[d], m.activations.peak_per_device[d]) << "device " << d;
}

TEST(ChromeTrace, MemoryBytesCounterWhenTheModelHasBytes) {
  Problem p;
  p.P = 4;
  p.M = 8;
  p.memory.activation_bytes = {100};
  p.memory.param_bytes = {1000, 2000, 3000, 4000};
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const MemoryBytes expected = MeasureMemoryBytes(*t);
  const json doc = json::parse(io::ChromeTraceJson(*t));
  EXPECT_EQ(CheckTraceEventFormat(doc), "");
  std::map<int, std::int64_t> peak;
  for (const json& e : doc["traceEvents"]) {
    if (e["ph"] != "C" || e["name"] != "memory bytes") continue;
    const int d = e["pid"];
    EXPECT_EQ(e["args"]["static"], 1000 * (d + 1));
    peak[d] = std::max(peak[d], e["args"]["static"].get<std::int64_t>() + e["args"]["activations"].get<std::int64_t>());
  }
  ASSERT_EQ(peak.size(), 4u);
  for (int d = 0; d < 4; ++d) EXPECT_EQ(peak[d], expected.peak_per_device[d]) << "device " << d;
  // Without bytes in the model, no bytes track.
  EXPECT_EQ(io::ChromeTraceJson(Placed("1f1b", 4, 8)).find("memory bytes"), std::string::npos);
}

TEST(ChromeTrace, SameTimelineSameBytes) {
  EXPECT_EQ(io::ChromeTraceJson(Placed("1f1b", 4, 8)), io::ChromeTraceJson(Placed("1f1b", 4, 8)));
}

// With comms modelled, a "links" process (pid P) has one thread per directed
// link carrying each transfer the comm run placed, start to completion, once;
// the slices of one thread never overlap. Without comms there is no such process.
TEST(ChromeTrace, OneTrackPerDirectedLinkCarriesItsTransfers) {
  Problem p;
  p.P = 4;
  p.M = 8;
  p.v = 2;
  p.comms.order = CommOrder::kPytorch;
  p.comms.latency = 2;
  p.comms.concurrency = 0;  // any number of RECVs in flight: transfers overlap on a link
  Result<Timeline> t = Simulate("interleaved", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_NE(t->comms, nullptr);
  io::ChromeTraceOptions o;
  o.tick_us = 10;
  const json doc = json::parse(io::ChromeTraceJson(*t, o));
  EXPECT_EQ(CheckTraceEventFormat(doc), "");
  std::map<int, std::string> threads;                        // tid -> name
  std::map<int, std::vector<std::pair<double, double>>> on;  // tid -> its slices
  std::map<std::tuple<bool, int, int>, json> transfers;      // (backward, boundary, microbatch) -> event
  bool named = false;
  for (const json& e : doc["traceEvents"]) {
    if (e["pid"] != 4) continue;
    if (e["ph"] == "M" && e["name"] == "process_name") named = e["args"]["name"] == "links";
    if (e["ph"] == "M" && e["name"] == "thread_name") threads[e["tid"]] = e["args"]["name"];
    if (e["ph"] != "X") continue;
    EXPECT_EQ(e["cat"], "transfer");
    on[e["tid"]].push_back({e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
    const json& a = e["args"];
    // Its thread is its link's.
    const std::string link = "link d" + std::to_string(a["src_device"].get<int>()) + " -> d" +
                             std::to_string(a["dst_device"].get<int>());
    EXPECT_EQ(threads.at(e["tid"]).rfind(link, 0), 0u) << e.dump();
    EXPECT_TRUE(transfers.emplace(std::tuple{a["direction"] == "backward", a["boundary"].get<int>(),
                                             a["microbatch"].get<int>()}, e).second)
        << "twice: " << e.dump();
  }
  EXPECT_TRUE(named);
  ASSERT_EQ(transfers.size(), t->comms->transfers.size());
  for (const Transfer& x : t->comms->transfers) {
    const json& e = transfers.at({x.backward, x.boundary, x.microbatch});
    EXPECT_EQ(e["ts"].get<std::int64_t>(), x.start * 10);
    EXPECT_EQ(e["dur"].get<std::int64_t>(), (x.end - x.start) * 10);
    EXPECT_EQ(e["args"]["send_post_tick"].get<Tick>(), x.send_post);
    EXPECT_EQ(e["args"]["recv_post_tick"].get<Tick>(), x.recv_post);
    EXPECT_EQ(e["name"], std::string(x.backward ? "B" : "F") + std::to_string(x.microbatch) + " s" +
                             std::to_string(x.backward ? x.boundary + 1 : x.boundary) + "->s" +
                             std::to_string(x.backward ? x.boundary : x.boundary + 1));
  }
  // Interleaved at P = 4 uses both directions of every ring link: d3 -> d0 too.
  std::set<std::string> links;
  for (const auto& [tid, name] : threads) links.insert(name.substr(0, name.find(" #")));
  EXPECT_EQ(links.size(), 8u);
  EXPECT_TRUE(links.count("link d3 -> d0"));
  for (auto& [tid, slices] : on) {
    std::sort(slices.begin(), slices.end());
    for (size_t i = 1; i < slices.size(); ++i) EXPECT_LE(slices[i - 1].second, slices[i].first) << threads[tid];
  }
  // Without comms: no links process.
  const json plain = json::parse(io::ChromeTraceJson(Placed("interleaved", 4, 8, 2, 2)));
  for (const json& e : plain["traceEvents"]) EXPECT_NE(e["pid"], 4) << e.dump();
}

}  // namespace
}  // namespace ppsim

#include "ppsim/comparison.h"

#include <algorithm>

#include <cstdio>
#include <sstream>

#include "ppsim/generators.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

using Row = ComparedRun;

std::string Join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

std::string Check(bool ok) { return ok ? "✓" : "✗"; }

}  // namespace

std::string ComparisonText(const std::vector<ComparedRun>& rows) {
  std::ostringstream out;
  const Problem& p = rows[0].timeline.problem;
  out << "P=" << p.P << " M=" << p.M << " comm=" << p.comm << "  activations: " << HoldModeName(p.hold) << "\n\n";
  auto cell = [](std::string s) {
    constexpr size_t kWidth = 34;
    size_t visible = 0;  // "✓"/"✗" are three bytes, one column
    for (unsigned char c : s) visible += (c & 0xC0) != 0x80;
    if (visible < kWidth) s.append(kWidth - visible, ' ');
    return s;
  };
  out << cell("");
  for (const Row& r : rows) out << cell(r.timeline.schedule.name + (r.timeline.problem.v > 1 ? " v=" + std::to_string(r.timeline.problem.v) : ""));
  out << "\n";
  auto line = [&](const char* name, auto measured, auto predicted) {
    out << cell(name);
    for (const Row& r : rows) out << cell(measured(r) + predicted(r));
    out << "\n";
  };
  auto none = [](const Row&) { return std::string(); };
  line("makespan", [](const Row& r) { return std::to_string(r.metrics.makespan); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.makespan) return std::string();
         return "  " + pr.makespan_formula + " = " + std::to_string(*pr.makespan) + " " +
                Check(*pr.makespan == r.metrics.makespan);
       });
  line("busy", [](const Row& r) { return std::to_string(r.metrics.busy); }, none);
  line("idle (bubble)", [](const Row& r) { return std::to_string(r.metrics.idle); }, none);
  line("bubble_ratio idle/busy",
       [](const Row& r) { return Ratio::Of(r.metrics.idle, r.metrics.busy).ToString(); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.bubble_ratio) return std::string();
         return "  " + pr.bubble_formula + " = " + pr.bubble_ratio->ToString() + " " +
                Check(*pr.bubble_ratio == Ratio::Of(r.metrics.idle, r.metrics.busy));
       });
  line("bubble_fraction", [](const Row& r) {
    char b[32]; std::snprintf(b, sizeof b, "%.4f", r.metrics.bubble_fraction); return std::string(b); }, none);
  line("transfers", [](const Row& r) { return std::to_string(r.metrics.transfers); }, none);
  line("max idle in a device span", [](const Row& r) { return std::to_string(r.metrics.max_span_idle); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.span_idle) return std::string();
         return "  " + pr.span_idle_formula + " = " + std::to_string(*pr.span_idle) + " " +
                Check(*pr.span_idle == r.metrics.max_span_idle);
       });
  line("max idle of a device", [](const Row& r) { return std::to_string(r.metrics.max_device_idle); },
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.device_idle) return std::string();
         return "  " + pr.device_idle_formula + " = " + std::to_string(*pr.device_idle) + " " +
                Check(*pr.device_idle == r.metrics.max_device_idle);
       });
  line("peak activations (cluster)", [](const Row& r) { return std::to_string(r.metrics.peak_activations); }, none);
  line("peak per device", [](const Row& r) { return Join(r.metrics.peak_activations_per_device); }, none);
  line("  predicted per device",
       [](const Row& r) {
         const auto& pr = r.prediction;
         if (!pr.peak_per_device && pr.peak_max) {
           const auto& got = r.metrics.peak_activations_per_device;
           const std::int64_t most = got.empty() ? 0 : *std::max_element(got.begin(), got.end());
           return "max " + pr.peak_max_formula + " = " + std::to_string(*pr.peak_max) + " " +
                  Check(*pr.peak_max == most);
         }
         if (!pr.peak_per_device) return std::string("-");
         return Join(*pr.peak_per_device) + " " + Check(*pr.peak_per_device == r.metrics.peak_activations_per_device);
       },
       none);
  out << "\n";
  bool same_makespan = true, same_idle = true;
  for (const Row& r : rows) {
    same_makespan = same_makespan && r.metrics.makespan == rows[0].metrics.makespan;
    same_idle = same_idle && r.metrics.idle == rows[0].metrics.idle;
  }
  out << "makespans " << (same_makespan ? "equal" : "differ") << ":";
  for (const Row& r : rows) out << " " << r.timeline.schedule.name << "=" << r.metrics.makespan;
  out << "\nbubbles " << (same_idle ? "equal" : "differ") << " (idle device-ticks):";
  for (const Row& r : rows) out << " " << r.timeline.schedule.name << "=" << r.metrics.idle;
  out << "\n";
  return out.str();
}

nlohmann::json ComparisonJson(const std::vector<ComparedRun>& rows) {
  nlohmann::json runs = nlohmann::json::array();
  bool same_makespan = true, same_idle = true;
  for (const Row& r : rows) {
    const Metrics& m = r.metrics;
    nlohmann::json j = {{"schedule", r.timeline.schedule.name}, {"P", r.timeline.problem.P},
                        {"M", r.timeline.problem.M},           {"v", r.timeline.problem.v},
                        {"makespan", m.makespan},              {"busy", m.busy},
                        {"idle", m.idle},                      {"bubble_ratio", m.bubble_ratio},
                        {"bubble_fraction", m.bubble_fraction}, {"transfers", m.transfers},
                        {"peak_activations", m.peak_activations},
                        {"peak_activations_per_device", m.peak_activations_per_device}};
    nlohmann::json pred = nlohmann::json::object();
    if (r.prediction.makespan) pred["makespan"] = {{"formula", r.prediction.makespan_formula}, {"value", *r.prediction.makespan}};
    if (r.prediction.bubble_ratio)
      pred["bubble_ratio"] = {{"formula", r.prediction.bubble_formula}, {"value", r.prediction.bubble_ratio->ToString()}};
    j["max_span_idle"] = m.max_span_idle;
    j["max_device_idle"] = m.max_device_idle;
    if (r.prediction.span_idle)
      pred["max_span_idle"] = {{"formula", r.prediction.span_idle_formula}, {"value", *r.prediction.span_idle}};
    if (r.prediction.device_idle)
      pred["max_device_idle"] = {{"formula", r.prediction.device_idle_formula}, {"value", *r.prediction.device_idle}};
    if (r.prediction.peak_per_device)
      pred["peak_activations_per_device"] = {{"formula", r.prediction.peak_formula}, {"value", *r.prediction.peak_per_device}};
    if (r.prediction.peak_max)
      pred["peak_activations_max_per_device"] = {{"formula", r.prediction.peak_max_formula},
                                                 {"value", *r.prediction.peak_max}};
    j["predicted"] = pred;
    runs.push_back(j);
    same_makespan = same_makespan && m.makespan == rows[0].metrics.makespan;
    same_idle = same_idle && m.idle == rows[0].metrics.idle;
  }
  return {{"runs", runs}, {"makespans_equal", same_makespan}, {"bubbles_equal", same_idle}};
}

Result<std::vector<ComparedRun>> Compare(const std::vector<std::string>& schedules, const Problem& problem) {
  std::vector<ComparedRun> rows;
  for (const std::string& name : schedules) {
    // --chunks applies to the schedules that take it; the others run their own.
    Problem p = problem;
    if (const GeneratorInfo* g = FindGenerator(name); g != nullptr && g->fixed_chunks != 0) p.v = g->fixed_chunks;
    Result<Timeline> t = Simulate(name, p);
    if (!t) return t.error();
    ComparedRun row{std::move(*t), {}, {}};
    row.metrics = Measure(row.timeline);
    row.prediction = Predict(name, row.timeline.problem);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace ppsim

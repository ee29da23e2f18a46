// What `ppsim explain` prints: the JSON report (key names are a contract,
// docs/explain.md), the text report, and the fitted costs as a cost file.
#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "ppsim/io/atomic_file.h"
#include "ppsim/jobs/explain.h"

namespace ppsim::jobs {
namespace {

// A fitted kind's name: PyTorch's letter, or FB for an overlapped pair ('&').
std::string Kind(char letter) { return letter == '&' ? "FB" : std::string(1, letter); }

using json = nlohmann::ordered_json;

// ns -> µs with the ns kept: 1691476 -> 1691.476.
double Us(Tick ns) { return static_cast<double>(ns) / 1000.0; }

json UsList(const std::vector<Tick>& ns) {
  json a = json::array();
  for (Tick t : ns) a.push_back(Us(t));
  return a;
}

json Run(const RunFigures& f) {
  return json{{"makespan_us", Us(f.makespan)}, {"busy_us", UsList(f.busy)}, {"idle_us", UsList(f.idle)}};
}

std::string Fixed(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

json FilesJson(const ExplainReport& r) {
  json files = json::array();
  for (const std::string& f : r.files) files.push_back(io::DisplayPath(f));
  return files;
}

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

// A trace of parts (DeepSeek's): {files, step, parts, pair}.
std::string PartsJson(const ExplainReport& r) {
  json j;
  j["files"] = FilesJson(r);
  j["step"] = r.step < 0 ? json(nullptr) : json(r.step);
  json parts = json::array();
  for (const PartFigures& p : r.parts) {
    json streams = json::object();
    for (const auto& [stream, ns] : p.streams) streams[std::to_string(stream)] = Us(ns);
    parts.push_back({{"name", p.name}, {"kind", std::string(1, p.kind)}, {"layer", p.layer}, {"cpu_us", Us(p.cpu)},
                     {"gpu_us", Us(p.gpu)}, {"streams", streams}});
  }
  j["parts"] = parts;
  const PairFigures& q = r.pair;
  j["pair"] = {{"span_us", Us(q.span)}, {"F_us", Us(q.f)}, {"B_us", Us(q.b)}, {"W_us", Us(q.w)},
               {"comm_us", Us(q.comm)}, {"hidden_comm_us", Us(q.hidden_comm)}};
  return Dump(j);
}

std::string PartsText(const ExplainReport& r) {
  std::string s = "parts (no PP: ranges): GPU µs per stream\n";
  for (const PartFigures& p : r.parts) {
    s += "  " + p.name + "(" + std::string(1, p.kind) + ") layer " + std::to_string(p.layer) + ": cpu " +
         Fixed(Us(p.cpu)) + "  gpu " + Fixed(Us(p.gpu));
    for (const auto& [stream, ns] : p.streams) s += "  stream " + std::to_string(stream) + " " + Fixed(Us(ns));
    s += "\n";
  }
  const PairFigures& q = r.pair;
  s += "pair: span " + Fixed(Us(q.span)) + " µs; compute F " + Fixed(Us(q.f)) + " + B " + Fixed(Us(q.b)) + " + W " +
       Fixed(Us(q.w)) + " = " + Fixed(Us(q.f + q.b + q.w)) + " µs; communication " + Fixed(Us(q.comm)) + " µs, " +
       Fixed(Us(q.hidden_comm)) + " of it under compute\n";
  return s;
}

// The three runs' lines, and the findings.
std::string RunsText(const ExplainReport& r, const char* measured, const char* replay, const char* ideal) {
  std::string s;
  auto line = [&](const char* name, const RunFigures& f, const char* what) {
    Tick busy = 0;
    for (Tick b : f.busy) busy += b;
    const double idle = static_cast<double>(r.P) * static_cast<double>(f.makespan) - static_cast<double>(busy);
    s += std::string(name) + Fixed(Us(f.makespan)) + " µs  idle " + Fixed(idle / 1000.0) + " µs (" +
         Fixed(f.makespan > 0 ? 100.0 * idle / (static_cast<double>(r.P) * static_cast<double>(f.makespan)) : 0, 1) +
         "%)  " + what + "\n";
  };
  line("measured  ", r.measured, measured);
  line("replay    ", r.replay, replay);
  line("ideal     ", r.ideal, ideal);
  if (r.findings.empty()) s += "no finding: nothing stands out\n";
  for (const Finding& f : r.findings) s += "- " + f.text + "\n";
  return s;
}

// A Megatron-LM timers log: mean costs only, Megatron's order placed.
std::string TimersText(const ExplainReport& r) {
  const TimerFigures& t = r.timers;
  std::string s = "schedule " + r.schedule + " (Megatron-LM's order: the timers log has no per-op times)  P " +
                  std::to_string(r.P) + "  M " + std::to_string(r.M) + "  v " + std::to_string(r.v) + "  (" +
                  r.placement + (t.iteration >= 0 ? ", iteration " + std::to_string(t.iteration) : std::string()) +
                  ", world_size " + std::to_string(t.world_size) + ")\n";
  s += "costs (mean µs per microbatch and chunk: forward-compute, backward-compute / (v·M)):\n";
  for (const StageCosts& c : r.costs) {
    s += "  stage " + std::to_string(c.stage) + " (rank " + std::to_string(c.rank) + "):";
    for (const FittedCost& f : c.kinds) s += "  " + Kind(f.kind) + " " + Fixed(Us(f.median));
    s += "\n";
  }
  s += "per rank (µs per step): forward-backward less gradient syncs / compute / send+recv (exposed beyond the "
       "replay's idle)\n";
  for (int k = 0; k < r.P; ++k)
    s += "  rank " + std::to_string(k) + ": " + Fixed(Us(t.pipeline[k])) + " / " + Fixed(Us(t.compute[k])) +
         " / " + Fixed(Us(t.p2p[k])) + " (" + Fixed(Us(t.exposed_p2p[k])) + ")\n";
  return s + RunsText(r, "forward-backward less gradient syncs, the slowest rank", "Megatron's order placed on the mean costs, no latency",
                      "the same, stragglers' factor taken out");
}

}  // namespace

std::string ExplainJson(const ExplainReport& r) {
  if (!r.parts.empty()) return PartsJson(r);
  json j;
  j["schedule"] = r.schedule.empty() ? json(nullptr) : json(r.schedule);
  j["P"] = r.P;
  j["M"] = r.M;
  j["v"] = r.v;
  j["placement"] = r.placement;
  j["step"] = r.step < 0 ? json(nullptr) : json(r.step);
  j["files"] = FilesJson(r);
  j["orders"] = r.orders;
  j["stage_to_rank"] = r.stage_to_rank;
  json costs = json::array();
  for (const StageCosts& c : r.costs) {
    json e{{"stage", c.stage}, {"rank", c.rank}};
    json spread = json::object(), count = json::object();
    for (const FittedCost& f : c.kinds) {
      e[Kind(f.kind)] = Us(f.median);
      spread[Kind(f.kind)] = Us(f.spread);
      count[Kind(f.kind)] = f.count;
    }
    e["spread_us"] = spread;
    e["count"] = count;
    costs.push_back(e);
  }
  j["costs_us"] = costs;
  json hops = json::array();
  for (const Hop& h : r.hops) hops.push_back({{"ranks", {h.a, h.b}}, {"latency_us", Us(h.latency)}, {"pairs", h.pairs}});
  j["hops"] = hops;
  j["measured"] = Run(r.measured);
  j["replay"] = Run(r.replay);
  j["ideal"] = Run(r.ideal);
  j["skew_us"] = UsList(r.skew);
  json findings = json::array();
  for (const Finding& f : r.findings) {
    json e{{"kind", f.kind}};
    if (f.rank >= 0) e["rank"] = f.rank;
    if (!f.ranks.empty()) e["ranks"] = f.ranks;
    if (!f.op.empty()) e["op"] = f.op;
    e["lost_us"] = Us(f.lost);
    e["text"] = f.text;
    findings.push_back(e);
  }
  j["findings"] = findings;
  json late = json::array();
  for (const LateOp& l : r.late) late.push_back({{"rank", l.rank}, {"op", l.op}, {"late_us", Us(l.late)}});
  j["late_ops"] = late;
  if (!r.timers.empty()) {
    const TimerFigures& t = r.timers;
    j["timers_us"] = {{"iteration", t.iteration < 0 ? json(nullptr) : json(t.iteration)},
                      {"world_size", t.world_size},
                      {"pipeline", UsList(t.pipeline)},
                      {"grad_sync", UsList(t.grad_sync)},
                      {"compute", UsList(t.compute)},
                      {"p2p", UsList(t.p2p)},
                      {"exposed_p2p", UsList(t.exposed_p2p)}};
  }
  return Dump(j);
}

std::string ExplainText(const ExplainReport& r) {
  if (!r.parts.empty()) return PartsText(r);
  if (!r.timers.empty()) return TimersText(r);
  std::string s;
  s += "schedule " + (r.schedule.empty() ? std::string("custom (no registry schedule has this order)") : r.schedule) +
       "  P " + std::to_string(r.P) + "  M " + std::to_string(r.M) + "  v " + std::to_string(r.v) + "  (" +
       r.placement + (r.step >= 0 ? ", ProfilerStep#" + std::to_string(r.step) : std::string()) + ")\n";
  for (size_t k = 0; k < r.orders.size(); ++k) {
    s += "rank " + std::to_string(k) + ":";
    for (const auto& a : r.orders[k]) s += " " + a;
    s += "\n";
  }
  s += "costs (median GPU µs ± median deviation):\n";
  for (const StageCosts& c : r.costs) {
    s += "  stage " + std::to_string(c.stage) + " (rank " + std::to_string(c.rank) + "):";
    for (const FittedCost& f : c.kinds) s += "  " + Kind(f.kind) + " " + Fixed(Us(f.median)) + " ± " + Fixed(Us(f.spread));
    s += "\n";
  }
  for (const Hop& h : r.hops)
    s += "hop " + std::to_string(h.a) + "-" + std::to_string(h.b) + ": latency " + Fixed(Us(h.latency)) + " µs (" +
         std::to_string(h.pairs) + " transfers)\n";
  s += "clock skew (µs, from rank 0):";
  for (Tick t : r.skew) s += " " + Fixed(Us(t));
  s += "\n";
  return s + RunsText(r, "the trace", "the orders placed with every op's measured duration",
                      "the orders placed with the median costs, faults removed");
}

Result<std::string> ExplainCostFile(const ExplainReport& r) {
  if (!r.parts.empty())
    return Fail(ErrorCode::kUsage, "export-costs: a trace of parts (no PP: ranges) fits no per-stage costs");
  std::string s = "# Fitted by `ppsim explain` from " + std::to_string(r.files.size()) +
                  " trace(s): median GPU time per stage, in ns ticks (docs/costs.md).\n";
  s += "# P = " + std::to_string(r.P) + ", M = " + std::to_string(r.M) + ", v = " + std::to_string(r.v) +
       (r.v > 1 ? "; one value per virtual stage: simulate with --cost-per chunk" : "") + "\n";
  auto list = [&](char kind) {
    std::string out;
    for (const StageCosts& c : r.costs) {
      Tick v = 0;
      for (const FittedCost& f : c.kinds)
        if (f.kind == kind) v = f.median;
      if (v <= 0) return std::string();
      out += (out.empty() ? "" : ", ") + std::to_string(v);
    }
    return "[" + out + "]";
  };
  const std::string f = list('F'), b = list('B'), i = list('I'), w = list('W'), fb = list('&');
  if (!f.empty()) s += "F = " + f + "\n";
  if (!i.empty()) s += "B = " + i + "\n";
  if (!w.empty()) s += "W = " + w + "\n";
  if (!b.empty()) s += "BW = " + b + "\n";
  if (!fb.empty()) s += "FB = " + fb + "\n";
  if (r.costs.size() > 1) {
    std::string comm;
    for (size_t k = 0; k + 1 < r.costs.size(); ++k) {
      const int a = r.stage_to_rank[k], c = r.stage_to_rank[k + 1];
      Tick lat = 0;
      for (const Hop& h : r.hops)
        if (h.a == std::min(a, c) && h.b == std::max(a, c)) lat = h.latency;
      comm += (comm.empty() ? "" : ", ") + std::to_string(lat);
    }
    s += "comm = [" + comm + "]\n";
  }
  return s;
}

}  // namespace ppsim::jobs

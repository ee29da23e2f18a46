#include "ppsim/closed_forms.h"

#include <algorithm>
#include <numeric>

namespace ppsim {
namespace {

// The one value of a cost vector when every stage has it, else nullopt.
std::optional<Tick> Uniform(const std::vector<Tick>& values) {
  if (values.empty()) return std::nullopt;
  for (Tick v : values)
    if (v != values[0]) return std::nullopt;
  return values[0];
}

// Zero Bubble's and DualPipe's bubbles (tests/core/zoo_closed_forms_test.cc
// checks them over a grid, inside exactly these conditions).
void PredictZoo(const std::string& schedule, const Problem& p, Tick f, Tick b, Prediction& out) {
  const auto w = Uniform(p.costs.w);
  const auto fb = Uniform(p.costs.fb);
  const std::int64_t hops = p.P - 1;
  if (schedule == "1f1b" && p.M >= 2 * p.P - 1) {
    out.span_idle = hops * (f + b);
    out.span_idle_formula = "(P-1)(F+B)";
  }
  if (!w || *w > f) return;
  if (schedule == "zb-h1" && p.M >= 2 * p.P - 1) {
    out.span_idle = hops * (f + b - *w);
    out.span_idle_formula = "(P-1)(F+B-W)";
  } else if (schedule == "zb-h2" && p.M >= 2 * p.P - 1 && f + b >= 2 * *w) {
    out.span_idle = hops * (f + b - 2 * *w);
    out.span_idle_formula = "(P-1)(F+B-2W)";
  } else if (schedule == "dualpipe" || schedule == "dualpipev") {
    // DeepSeek's (PP/2-1)(F&B+B-3W): its F&B is ppsim's FB (default F + BW),
    // its B the full backward BW. Exact where F = B, BW = B + W, W ≤ F and
    // F + W ≤ FB ≤ F + BW (from a pair that saves all but W to no overlap).
    const auto bw = p.costs.bw.empty() ? std::optional<Tick>(b + *w) : Uniform(p.costs.bw);
    const auto pair = p.costs.fb.empty() ? (bw ? std::optional<Tick>(f + *bw) : std::nullopt) : fb;
    if (!pair || !bw || b != f || *bw != b + *w || *pair < f + *w || *pair > f + *bw) return;
    const std::int64_t pairs = schedule == "dualpipe" ? p.P / 2 : p.P;
    out.device_idle = (pairs - 1) * (*pair + *bw - 3 * *w);
    out.device_idle_formula = schedule == "dualpipe" ? "(P/2-1)(F&B+B-3W)" : "(P-1)(F&B+B-3W)";
  }
}

// Qi et al. (NeurIPS 2024) give V-Half's and V-Min's activation memory in
// whole microbatches, counted from a forward's start to its W's end: ⌊(P+2)/2⌋
// and ⌊(P+4)/3⌋ on the fullest device. ppsim counts chunk sets (two per
// microbatch); tests/core/vshape_orders_test.cc checks where this holds.
void PredictVShape(const std::string& schedule, const Problem& p, Prediction& out) {
  if (p.hold != HoldMode::kResident || (schedule != "v-half" && schedule != "v-min")) return;
  const bool half = schedule == "v-half";
  out.peak_max = 2 * (half ? (p.P + 2) / 2 : (p.P + 4) / 3);
  out.peak_max_formula = half ? "2⌊(P+2)/2⌋" : "2⌊(P+4)/3⌋";
}

// Megatron's combined 1F1B runs interleaved's order with one more warm-up
// forward and its steady F and B as one pair costing F+B, so the makespan and
// bubble are interleaved's (Narayanan et al.), and device d holds its
// W = (v-1)·g + 2(P-1-d) + 1 warm-up forwards plus the pair's: min(W+1, vM)
// chunk sets, allocator view (tests/core/combined_1f1b_test.cc checks both
// for every group Megatron accepts).
void PredictCombined(const std::string& schedule, const Problem& p, Prediction& out) {
  if (schedule != "combined-1f1b" || !p.costs.fb.empty()) return;
  const Tick fb = p.costs.f[0] + p.costs.b[0];
  const std::int64_t chunks = std::int64_t{p.v} * p.M;
  out.makespan = (chunks + p.P - 1) * fb;
  out.makespan_formula = "(vM+P-1)(F+B) per chunk";
  out.bubble_ratio = Rational::Of(p.P - 1, chunks);
  out.bubble_formula = "(P-1)/(vM)";
  if (p.hold != HoldMode::kResident) return;
  const int group = p.group != 0 ? p.group : p.P;
  std::vector<std::int64_t> peaks(p.P);
  for (int d = 0; d < p.P; ++d)
    peaks[d] = std::min<std::int64_t>(std::int64_t{p.v - 1} * group + 2 * (p.P - 1 - d) + 2, chunks);
  out.peak_per_device = peaks;
  out.peak_formula = "min((v-1)g+2(P-1-d)+2, vM)";
}

}  // namespace

Prediction Predict(const std::string& schedule, const Problem& p) {
  Prediction out;
  const auto f = Uniform(p.costs.f), b = Uniform(p.costs.b);
  if (!f || !b || p.comm != 0 || !p.comm_hops.empty()) return out;
  const Tick fb = *f + *b;
  const bool held = p.hold == HoldMode::kHeld;
  if (schedule == "gpipe" || schedule == "1f1b") {
    out.makespan = (p.M + p.P - 1) * fb;
    out.makespan_formula = "(M+P-1)(F+B)";
    out.bubble_ratio = Rational::Of(p.P - 1, p.M);
    out.bubble_formula = "(P-1)/M";
    std::vector<std::int64_t> peaks(p.P);
    for (int d = 0; d < p.P; ++d) {
      if (schedule == "gpipe") {
        peaks[d] = held && d == p.P - 1 ? p.M - 1 : p.M;  // the last device starts B0 as F(M-1) ends
      } else {
        peaks[d] = held && d == p.P - 1 ? 0 : std::min(p.P - d, p.M);
      }
    }
    out.peak_per_device = peaks;
    out.peak_formula = schedule == "gpipe" ? (held ? "M (M-1 on the last device)" : "M")
                                           : (held ? "min(P-d, M) (0 on the last device)" : "min(P-d, M)");
  }
  PredictZoo(schedule, p, *f, *b, out);
  // Megatron's groups (or PyTorch's rounds) of at least P microbatches.
  const int group = p.group != 0 ? p.group : p.M / std::max(1, p.M / p.P);
  if (schedule == "interleaved" && group >= p.P) {
    out.makespan = (std::int64_t{p.v} * p.M + p.P - 1) * fb;
    out.makespan_formula = "(vM+P-1)(F+B) per chunk";
    out.bubble_ratio = Rational::Of(p.P - 1, std::int64_t{p.v} * p.M);
    out.bubble_formula = "(P-1)/(vM)";
  }
  PredictVShape(schedule, p, out);
  PredictCombined(schedule, p, out);
  return out;
}

}  // namespace ppsim

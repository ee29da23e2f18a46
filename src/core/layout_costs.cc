// A model's layers summed into a layout's stages.
#include "ppsim/layout_costs.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ppsim {
namespace {

// The model's layers of one kind, in order.
std::vector<const ModelLayer*> OfKind(const Model& model, char kind) {
  std::vector<const ModelLayer*> out;
  for (const ModelLayer& l : model.layers)
    if (l.kind == kind) out.push_back(&l);
  return out;
}

Error Mismatch(const std::string& what, size_t model, int layout) {
  return Error::Field(
      ErrorCode::kInvalidValue, "model",
      ": " + std::to_string(model) + " " + what + " layers, but the layout has " + std::to_string(layout));
}

struct Adder {
  StageCosts& c;
  const BytesPerParam& per;
  void operator()(size_t s, const ModelLayer& l) const {
    c.f[s] += l.f;
    c.b[s] += l.b;
    c.w[s] += l.w;
    if (l.recompute) c.recompute[s] += l.f;
    c.activation_bytes[s] += l.activation_bytes;
    c.input_bytes[s] += HeldBytes(l);
    c.param_bytes[s] += l.param_bytes;
    c.grad_bytes[s] += GradBytes(l, per);
    c.optimizer_bytes[s] += OptimizerBytes(l, per);
  }
};

}  // namespace

std::int64_t GradBytes(const ModelLayer& l, const BytesPerParam& per) {
  return l.param_bytes / per.weight * per.grad;
}

std::int64_t OptimizerBytes(const ModelLayer& l, const BytesPerParam& per) {
  return l.param_bytes / per.weight * per.optimizer;
}

std::int64_t HeldBytes(const ModelLayer& l) { return l.recompute ? l.checkpoint_bytes : l.activation_bytes; }

Result<StageCosts> SumStageCosts(const Model& model, const Layout& layout) {
  const auto decoder = OfKind(model, 't'), mtp = OfKind(model, 'm');
  const auto embedding = OfKind(model, 'E'), loss = OfKind(model, 'L');
  if (decoder.size() != static_cast<size_t>(layout.num_layers))
    return Mismatch("decoder", decoder.size(), layout.num_layers);
  if (mtp.size() != static_cast<size_t>(layout.mtp_layers)) return Mismatch("MTP", mtp.size(), layout.mtp_layers);
  if (embedding.size() > 1 || loss.size() > 1)
    return Error::Field(ErrorCode::kInvalidValue, "model",
                        ": more than one " + std::string(embedding.size() > 1 ? "embedding" : "loss") + " layer");
  const size_t n = layout.stages.size();
  const std::vector<Tick> ticks(n, 0);
  const std::vector<std::int64_t> bytes(n, 0);
  StageCosts c{ticks, ticks, ticks, ticks, bytes, bytes, bytes, bytes, bytes};
  const Adder Add{c, model.bytes_per_param};
  for (size_t s = 0; s < n; ++s) {
    const LayoutStage& st = layout.stages[s];
    if (st.builds_embedding && !embedding.empty()) Add(s, *embedding[0]);
    for (int id : st.decoder_layer_ids) Add(s, *decoder[id]);
    for (int id : st.mtp_layer_ids) Add(s, *mtp[id]);
    if (st.builds_loss && !loss.empty()) Add(s, *loss[0]);
  }
  return c;
}

Error ApplyStageCosts(const StageCosts& c, const Layout& layout, Problem& p) {
  std::vector<int> empty_stages;
  for (size_t s = 0; s < layout.stages.size(); ++s) {
    const LayoutStage& st = layout.stages[s];
    const std::string stage = "stage " + std::to_string(s) + " (pp " + std::to_string(st.pp_rank) + ", vp " +
                              std::to_string(st.vp_stage) + ")";
    const bool empty =
        st.decoder_layer_ids.empty() && st.mtp_layer_ids.empty() && !st.builds_embedding && !st.builds_loss;
    if (empty) {
      empty_stages.push_back(static_cast<int>(s));  // its ops take 0 ticks and pass data on
      continue;
    }
    for (const auto& [sum, kind] : {std::pair{c.f[s], "F"}, std::pair{c.b[s], "B"}, std::pair{c.w[s], "W"}}) {
      if (sum >= 1) continue;
      return Error::Field(
          ErrorCode::kInvalidValue, "layout",
          ": " + stage + " sums to " + kind + " = " + std::to_string(sum) + " ticks; every op must take ≥ 1");
    }
  }
  if (empty_stages.size() == layout.stages.size())
    return Error::Field(ErrorCode::kInvalidValue, "layout", ": every stage is empty; there is nothing to run");
  p.P = layout.P;
  p.v = layout.v;
  p.cost_basis = CostBasis::kChunk;
  p.costs = Costs{};
  p.costs.f = c.f;
  p.costs.b = c.b;
  p.costs.w = c.w;
  p.empty_stages = std::move(empty_stages);
  const auto any = [](const auto& v) {
    return std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x != 0; });
  };
  if (any(c.recompute)) {  // recompute as an op (recompute.h)
    p.recompute = RecomputeMode::kSelective;
    p.costs.r = c.recompute;
    p.memory.input_bytes = c.input_bytes;
  }
  if (any(c.activation_bytes)) p.memory.activation_bytes = c.activation_bytes;
  if (any(c.param_bytes)) {
    p.memory.param_bytes = c.param_bytes;
    p.memory.grad_bytes = c.grad_bytes;
    p.memory.optimizer_bytes = c.optimizer_bytes;
  }
  return Error::Ok();
}

}  // namespace ppsim
